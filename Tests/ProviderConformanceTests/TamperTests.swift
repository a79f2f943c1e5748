import Foundation
import ProviderAPI
import ProviderConformance
import SharedCacheConformance
import Testing

@Suite("The suite fails a provider whose transfers or names misbehave")
struct TamperTests {
    private func run(_ tamper: TamperedProvider.Tamper, _ cases: Set<String>) async -> ConformanceReport {
        let server = InMemoryServer()
        let options = ConformanceOptions(caseFilter: cases, baseTransport: server)
        let catalog = ConformanceCatalog.standard + SharedCacheConformance.offline
        let suite = ConformanceSuite(subject: "tampered \(tamper)", options: options, cases: catalog) { environment in
            let transport = environment.transport
            if tamper == .ignoresTransport {
                return TamperedProvider(base: InMemoryProvider(transport: server), tamper: tamper, direct: InMemoryProvider(transport: server))
            }
            return TamperedProvider(base: InMemoryProvider(transport: transport), tamper: tamper, direct: InMemoryProvider(transport: server))
        }
        return await suite.run()
    }

    @Test("a refused login reported as notFound, or asked again and again, fails auth.refusedLogin; the reference passes it")
    func refusedLogin() async {
        let asNotFound = await run(.refusalAsNotFound, ["auth.refusedLogin"])
        #expect(asNotFound.counts.failed == 1, "\(asNotFound.text)")
        #expect(asNotFound.results.first?.outcome.detail?.contains("notFound, not .unauthorized") == true, "\(asNotFound.text)")
        let looping = await run(.retriesRefusals, ["auth.refusedLogin"])
        #expect(looping.counts.failed == 1, "\(looping.text)")
        #expect(looping.results.first?.outcome.detail?.contains("requests to a server refusing every one") == true, "\(looping.text)")
        let reference = await run(.dropsProgress, ["auth.refusedLogin"])
        #expect(reference.counts.passed == 1, "\(reference.text)")
    }

    @Test("a download that goes around the given transport fails the fault cases as 'fault not applied'")
    func faultNotApplied() async {
        let report = await run(.downloadsAroundTransport, ["resume.afterDrop", "integrity.truncatedWithoutLength"])
        #expect(report.counts.failed == 2, "\(report.text)")
        for result in report.results {
            #expect(result.outcome.detail?.hasPrefix("fault not applied: ") == true, "\(result)")
        }
    }

    @Test("a provider that never uses the given transport is skipped by the transport fault cases, not failed, and tested through sinks and sources")
    func transportUnused() async {
        let report = await run(.ignoresTransport, ["resume", "integrity.truncatedWithoutLength", "retries", "offline"])
        #expect(report.counts.failed == 0, "\(report.text)")
        #expect(report.counts.skipped == 5, "\(report.text)")
        for name in ["resume.afterDrop", "integrity.truncatedWithoutLength", "retries.transientFailures", "retries.rateLimited", "offline.cachedReads"] {
            let result = report.result(named: name)
            #expect(result?.outcome == .skipped(.noTransport), "\(name): \(String(describing: result))")
            #expect(result?.outcome.detail?.contains("sent no request through the transport") == true, "\(name)")
        }
        for name in ["resume.afterSinkFailure", "retries.afterSourceFailure"] {
            #expect(report.result(named: name)?.passed == true, "\(name): \(report.text)")
        }
    }

    @Test("a resume that starts over fails both resume cases")
    func ignoredResume() async {
        let report = await run(.ignoresResume, ["resume"])
        #expect(report.results.map(\.name) == ["resume.afterDrop", "resume.afterSinkFailure"])
        #expect(report.failures.count == 2, "\(report.text)")
        #expect(report.failures.allSatisfy { $0.outcome.detail?.contains("the resumed download started at 0") == true }, "\(report.text)")
    }

    @Test("an upload that keeps what it read when its source breaks fails retries.afterSourceFailure")
    func keptBrokenUpload() async {
        let report = await run(.keepsBrokenUploads, ["retries.afterSourceFailure"])
        let detail = report.result(named: "retries.afterSourceFailure")?.outcome.detail ?? ""
        #expect(detail.contains("new.bin") && detail.contains("after the upload whose source broke"), "\(report.text)")
    }

    @Test("a download that finishes its sink after the sink failed fails resume.afterSinkFailure")
    func finishedFailedSink() async {
        let report = await run(.swallowsSinkErrors, ["resume.afterSinkFailure"])
        let detail = report.result(named: "resume.afterSinkFailure")?.outcome.detail ?? ""
        #expect(detail.contains("succeeded although its sink failed"), "\(report.text)")
    }

    @Test("ignored ranges fail every range case")
    func ignoredRanges() async {
        let report = await run(.ignoresRanges, ["ranges"])
        #expect(report.results.map(\.name) == ["ranges.closed", "ranges.from", "ranges.suffix"])
        #expect(report.failures.count == 3, "\(report.text)")
    }

    @Test("missing progress fails the progress cases and the download cancellation case")
    func droppedProgress() async {
        let report = await run(.dropsProgress, ["progress", "cancellation.download"])
        #expect(report.counts.failed == 3, "\(report.text)")
        #expect(report.result(named: "progress.upload")?.outcome.detail == "upload: no progress was reported")
        #expect(report.result(named: "cancellation.download")?.outcome.detail?.contains("no progress past 1 MiB") == true)
    }

    @Test("a download that ignores cancellation fails cancellation.download")
    func swallowedCancellation() async {
        let report = await run(.swallowsCancellation, ["cancellation.download"])
        let detail = report.result(named: "cancellation.download")?.outcome.detail ?? ""
        #expect(detail.contains("completed instead of throwing .cancelled"), "\(report.text)")
    }

    @Test("names folded to NFC by a provider that declares .preserved fail the NFD case only")
    func foldedNames() async {
        let report = await run(.foldsToNFC, ["names.unicodeNFC", "names.unicodeNFD"])
        #expect(report.result(named: "names.unicodeNFC")?.passed == true, "\(report.text)")
        let detail = report.result(named: "names.unicodeNFD")?.outcome.detail ?? ""
        #expect(detail.contains(#"cafe\u{301}.txt"#) && detail.contains("normalization .preserved"), "\(report.text)")
    }

    @Test("a scratch folder that cannot be deleted gives the failed case cleanup")
    func undeletableScratch() async throws {
        let report = await run(.undeletableScratch, ["listing.itemNotFound"])
        #expect(report.result(named: "listing.itemNotFound")?.passed == true)
        let cleanup = try #require(report.result(named: "cleanup"))
        #expect(cleanup.failed && cleanup.group == "suite")
        #expect(cleanup.outcome.detail?.contains("could not delete the scratch folder") == true)
    }
}
