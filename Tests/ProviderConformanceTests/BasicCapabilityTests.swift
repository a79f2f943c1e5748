import Foundation
import ProviderAPI
import ProviderConformance
import Testing

@Suite("The suite on a provider with only the basic calls and strict names")
struct BasicCapabilityTests {
    @Test("optional cases are skipped naming the feature, unsupported calls are checked, names are encoded")
    func optionalCasesSkipped() async throws {
        let (suite, server) = ReferenceSuite.make(capabilities: InMemoryProvider.basicCapabilities, names: ReferenceSuite.strictNames)
        let report = await suite.run()
        print(report.text)
        #expect(report.counts.failed == 0, "\(ReferenceSuite.failures(report))")
        #expect(server.nodeCount == 1)

        let declared = InMemoryProvider.basicCapabilities.features
        for conformanceCase in suite.selectedCases where !declared.isSuperset(of: conformanceCase.requires) {
            let result = try #require(report.result(named: conformanceCase.name))
            let reason = result.outcome.detail ?? ""
            #expect(result.skipped, "\(conformanceCase.name) was not skipped")
            #expect(reason.hasPrefix("provider does not declare"), "\(conformanceCase.name): \(reason)")
            for (feature, name) in Capabilities.Features.named where conformanceCase.requires.contains(feature) && !declared.contains(feature) {
                #expect(reason.contains(".\(name)"), "\(conformanceCase.name) does not name .\(name): \(reason)")
            }
        }
        for name in ["search.byName", "shares.publicLink", "quota.report", "changes.afterUpload", "move.file", "copy.folder", "ranges.suffix", "resume.afterDrop"] {
            #expect(report.result(named: name)?.skipped == true, "\(name)")
        }

        let unsupported = try #require(report.result(named: "unsupported.calls"))
        #expect(unsupported.passed)
        let checked = unsupported.notes.joined()
        for label in ["move", "copy", "download(range:)", "download(resume:)", "upload(ifMatch:)", "search", "shares(of:)", "share", "revoke", "changes", "quota"] {
            #expect(checked.contains(label), "unsupported.calls did not check \(label): \(checked)")
        }

        for name in ["names.question", "names.quote", "names.leadingSpace", "names.leadingDot"] {
            let result = try #require(report.result(named: name))
            #expect(result.passed && result.notes.contains { $0.contains("encoded as") }, "\(name): \(result)")
        }
        #expect(report.result(named: "names.unicodeNFD")?.passed == true)
        #expect(report.result(named: "names.spaces")?.notes.isEmpty == true)
    }
}
