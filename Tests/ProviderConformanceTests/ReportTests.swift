import Foundation
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import Testing

@Suite("Reports and the runner")
struct ReportTests {
    private let sample = ConformanceReport(
        subject: "sample", startedAt: Date(timeIntervalSince1970: 1_700_000_000), durationSeconds: 1.5,
        results: [
            CaseResult(name: "listing.paging", group: "listing", outcome: .passed, durationSeconds: 1.234, notes: ["21 pages"]),
            CaseResult(name: "names.question", group: "names", outcome: .failed("404 on GET /why?.txt"), durationSeconds: 0.2),
            CaseResult(name: "search.byName", group: "search", outcome: .skipped("provider does not declare .search"), durationSeconds: 0),
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

    @Test("case names are unique and groups are the name prefixes")
    func catalog() {
        let cases = ConformanceCatalog.standard
        #expect(Set(cases.map(\.name)).count == cases.count)
        #expect(cases.allSatisfy { $0.name.hasPrefix($0.group + ".") })
        #expect(ConformanceCatalog.groups.first == "listing" && ConformanceCatalog.groups.last == "offline")
    }
}
