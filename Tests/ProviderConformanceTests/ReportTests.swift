import Foundation
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import SharedCacheConformance
import Testing

@Suite("Reports and the runner")
struct ReportTests {
    private let sample = ConformanceReport(
        subject: "sample", startedAt: Date(timeIntervalSince1970: 1_700_000_000), durationSeconds: 1.5,
        results: [
            CaseResult(name: "listing.paging", group: "listing", outcome: .passed, durationSeconds: 1.234, notes: ["21 pages"]),
            CaseResult(name: "names.question", group: "names", outcome: .failed("404 on GET /why?.txt"), durationSeconds: 0.2),
            CaseResult(name: "search.byName", group: "search", outcome: .skipped(.capability(.search)), durationSeconds: 0),
        ])

    @Test("the text has one line per case and ends with the summary line")
    func text() {
        let lines = sample.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.last == "conformance: 1 passed, 1 failed, 1 skipped")
        #expect(lines[1].hasPrefix("PASS  listing.paging") && lines[1].contains("1.23 s") && lines[1].hasSuffix("21 pages"))
        #expect(lines[2].hasPrefix("FAIL  names.question") && lines[2].hasSuffix("404 on GET /why?.txt"))
        #expect(lines[3].hasPrefix("SKIP  search.byName") && lines[3].hasSuffix("provider does not declare .search"))
    }

    @Test("the JSON round-trips and spells outcomes plainly")
    func json() throws {
        let decoded = try ConformanceReport.decode(json: Data(sample.json.utf8))
        #expect(decoded == sample)
        #expect(sample.json.contains(#""status" : "skipped""#))
        #expect(sample.json.contains(#""counts" : {"#))
        // A skip keeps its sentence in "detail" for people, and its typed reason for programs.
        #expect(sample.json.contains(#""detail" : "provider does not declare .search""#))
        #expect(sample.json.contains(#""kind" : "capability""#) && sample.json.contains(#""features" : ["#))
        #expect(decoded.result(named: "search.byName")?.outcome.skipReason == .capability(.search))
    }

    @Test("every skip reason prints as a sentence and round-trips through JSON")
    func skipReasons() throws {
        let reasons: [SkipReason] = [
            .capability([.search, .recursiveETags]), .capability(Capabilities.Features(rawValue: 1 << 40)), .shareKind(.publicLink),
            .noModifiedTimes, .uploadLimit(maximum: 10, needed: 20), .opted("large files are off"), .noTransport, .cancelled,
        ]
        for reason in reasons {
            #expect(!reason.isEmpty && !reason.description.isEmpty, "\(reason)")
            let result = CaseResult(name: "x.y", group: "x", outcome: .skipped(reason), durationSeconds: 0)
            let decoded = try JSONDecoder().decode(CaseResult.self, from: try JSONEncoder().encode(result))
            #expect(decoded == result, "\(reason)")
        }
        #expect(SkipReason.capability([.search, .recursiveETags]).description == "provider does not declare .search, .recursiveETags")
        #expect(SkipReason.shareKind(.publicLink).description == "capabilities.shareKinds does not contain .publicLink")
        #expect(SkipReason.uploadLimit(maximum: 10, needed: 20).description == "capabilities.maxUploadSize is 10 bytes, below 20")
        #expect(SkipReason.capability([]).isEmpty && SkipReason.opted(" ").isEmpty)
        #expect(reasons.filter(\.isCapability).count == 5)
        let unknown = Data(#"{"status": "skipped", "detail": "x", "reason": {"kind": "whim"}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CaseResult.Outcome.self, from: unknown) }
        let reasonless = Data(#"{"status": "skipped", "detail": "no reason given"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CaseResult.Outcome.self, from: reasonless) }
    }

    @Test("recordIssues records a skip whose reason names nothing; recordUnexcusedSkips one that no capability or option excuses")
    func reasonlessSkips() {
        let report = ConformanceReport(
            subject: "skips", startedAt: Date(timeIntervalSince1970: 1_700_000_000), durationSeconds: 1,
            results: [
                CaseResult(name: "listing.paging", group: "listing", outcome: .passed, durationSeconds: 0),
                CaseResult(name: "search.byName", group: "search", outcome: .skipped(.capability([])), durationSeconds: 0),
                CaseResult(name: "files.large", group: "files", outcome: .skipped(.opted("")), durationSeconds: 0),
                CaseResult(name: "quota.report", group: "quota", outcome: .skipped(.capability(.quota)), durationSeconds: 0),
            ])
        withKnownIssue("two skips without a reason") {
            report.recordIssues()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("was skipped without a reason") }
        }
        let excused = ConformanceReport(
            subject: "excused", startedAt: Date(timeIntervalSince1970: 1_700_000_000), durationSeconds: 1,
            results: [
                CaseResult(name: "quota.report", group: "quota", outcome: .skipped(.capability(.quota)), durationSeconds: 0),
                CaseResult(name: "files.large", group: "files", outcome: .skipped(.opted("large files are off")), durationSeconds: 0),
                CaseResult(name: "shares.publicLink", group: "shares", outcome: .skipped(.shareKind(.publicLink)), durationSeconds: 0),
            ])
        excused.recordUnexcusedSkips()
        let unexcused = ConformanceReport(
            subject: "unexcused", startedAt: Date(timeIntervalSince1970: 1_700_000_000), durationSeconds: 1,
            results: [
                CaseResult(name: "retries.rateLimited", group: "retries", outcome: .skipped(.noTransport), durationSeconds: 0),
                CaseResult(name: "quota.report", group: "quota", outcome: .skipped(.cancelled), durationSeconds: 0),
            ])
        withKnownIssue("a skip for an unused transport and one for a cancelled run") {
            unexcused.recordUnexcusedSkips()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("is not excused by a capability") }
        }
    }

    @Test("a factory that throws gives one failed setup case")
    func setupFailure() async {
        var options = ConformanceOptions(baseTransport: InMemoryServer())
        options.caseFilter = ["listing"]
        let suite = ConformanceSuite(subject: "broken", options: options) { _ in
            throw ProviderError(.unauthorized, "wrong password")
        }
        let report = await suite.run()
        #expect(report.results.map(\.name) == ["setup"])
        #expect(report.results.first?.outcome.detail?.contains("wrong password") == true)
        withKnownIssue("setup failed and nothing passed") { report.recordIssues() }
    }

    @Test("the filter selects cases by name or by group")
    func filter() {
        var options = ConformanceOptions(baseTransport: InMemoryServer())
        options.caseFilter = ["listing", "names.emoji"]
        let suite = ConformanceSuite(subject: "filter", options: options) { InMemoryProvider(transport: $0.transport) }
        let names = suite.selectedCases.map(\.name)
        #expect(names.contains("listing.paging") && names.contains("names.emoji"))
        #expect(names.allSatisfy { $0.hasPrefix("listing.") || $0 == "names.emoji" })
        #expect(suite.unmatchedFilterNames.isEmpty)

        options.caseFilter = ["listing", "no.such.case"]
        let typo = ConformanceSuite(subject: "typo", options: options) { InMemoryProvider(transport: $0.transport) }
        #expect(typo.unmatchedFilterNames == ["no.such.case"])
    }

    @Test("case names are unique and groups are the name prefixes, with SharedCache's offline section added last")
    func catalog() {
        let cases = ConformanceCatalog.standard + SharedCacheConformance.offline
        #expect(Set(cases.map(\.name)).count == cases.count)
        #expect(cases.allSatisfy { $0.name.hasPrefix($0.group + ".") })
        #expect(ConformanceCatalog.groups.first == "listing" && ConformanceCatalog.groups.last == "unsupported")
        #expect(!ConformanceCatalog.groups.contains("offline"))
        #expect(SharedCacheConformance.offline.map(\.name) == ["offline.cachedReads"])
        #expect(cases.last?.group == "offline")
    }
}
