import Foundation
import ProviderConformance
import SharedCacheConformance
import StrataProcessKit
import Testing

/// `strata conformance --list` as the real binary: every case the command would run, with what
/// it needs and what it proves, without a URL and without connecting anywhere.
@Suite("strata conformance --list")
struct ConformanceListTests {
    /// The cases `strata conformance` runs, in order.
    private let expected = ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal

    @Test("--json lists every case of the run, in order, with its group, features, large-file need and summary")
    func jsonListsEveryCase() async throws {
        let run = try await StrataProcess.run(["conformance", "--list", "--json"])
        #expect(run.status == 0, "\(run)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])
        #expect(decoded.compactMap { $0["name"] as? String } == expected.map(\.name))
        #expect(decoded.compactMap { $0["summary"] as? String } == expected.map(\.summary))
        #expect(decoded.compactMap { $0["group"] as? String } == expected.map(\.group))
        let byName = Dictionary(uniqueKeysWithValues: decoded.compactMap { entry in (entry["name"] as? String).map { ($0, entry) } })
        #expect(byName["search.fullText"]?["requires"] as? [String] == ["search", "fullTextSearch"])
        #expect(byName["listing.root"]?["requires"] as? [String] == [])
        #expect(byName["listing.emptyFolder"]?["requires"] as? [String] == ["emptyFolders"])
        #expect(byName["shares.publicLink"]?["requires"] as? [String] == ["shares"])
        #expect(byName["files.large"]?["largeFiles"] as? Bool == true)
        #expect(byName["files.empty"]?["largeFiles"] as? Bool == false)
        #expect(byName["offline.cachedReads"] != nil, "the cache sections the command adds are listed")
    }

    @Test("the text form groups the cases and names what each needs")
    func textNamesNeeds() async throws {
        let run = try await StrataProcess.run(["conformance", "--list"])
        #expect(run.status == 0, "\(run)")
        let lines = run.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first == "listing:")
        #expect(lines.contains("  search.fullText  [needs .search, .fullTextSearch]"))
        #expect(lines.contains("  files.large  [needs --large]"))
        #expect(lines.contains("shares:"))
        #expect(lines.contains("      " + (expected.first { $0.name == "shares.expiry" }?.summary ?? "?")))
        #expect(lines.last == "\(expected.count) cases in \(Set(expected.map(\.group)).count) groups")
    }

    @Test("--case narrows the list to a group or a case; an unknown name is warned about")
    func filtered() async throws {
        let run = try await StrataProcess.run(["conformance", "--list", "--json", "--case", "shares", "--case", "quota.report", "--case", "nosuch"])
        #expect(run.status == 0, "\(run)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])
        #expect(decoded.compactMap { $0["name"] as? String } == ["shares.publicLink", "shares.passwordLink", "shares.expiry", "quota.report"])
        #expect(run.error.contains("no case or group named nosuch"), "\(run)")
    }

    @Test("without --list a URL is required")
    func urlRequiredToRun() async throws {
        let run = try await StrataProcess.run(["conformance"])
        #expect(run.status != 0)
        #expect(run.error.contains("or --list"), "\(run)")
    }
}
