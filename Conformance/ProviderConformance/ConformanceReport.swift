import Foundation

/// What a conformance run found: one ``CaseResult`` per case, in the order they ran.
///
/// ``text`` is a table for people, ending in the line
/// `conformance: N passed, N failed, N skipped`; ``json`` is the same for machines.
public struct ConformanceReport: Sendable, Hashable, Codable {
    /// How many cases ended each way.
    public struct Counts: Sendable, Hashable, Codable {
        /// Cases that passed.
        public var passed: Int
        /// Cases that failed, `setup` and `cleanup` included.
        public var failed: Int
        /// Cases that were skipped.
        public var skipped: Int

        /// Counts `results`.
        package init(_ results: [CaseResult]) {
            passed = results.count(where: \.passed)
            failed = results.count(where: \.failed)
            skipped = results.count(where: \.skipped)
        }
    }

    /// What was tested, such as `webdav apache http://127.0.0.1:8080/dav`.
    public var subject: String
    /// When the run started.
    package var startedAt: Date
    /// How long the whole run took, in seconds.
    package var durationSeconds: Double
    /// The results, in the order the cases ran.
    public var results: [CaseResult]
    /// How many cases ended each way.
    public var counts: Counts

    /// Creates a report.
    package init(subject: String, startedAt: Date, durationSeconds: Double, results: [CaseResult]) {
        self.subject = subject
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.results = results
        self.counts = Counts(results)
    }

    /// The results that failed.
    public var failures: [CaseResult] { results.filter(\.failed) }

    /// The result of the case `name`, if it ran.
    package func result(named name: String) -> CaseResult? { results.first { $0.name == name } }

    /// Whether nothing failed and at least one case passed.
    public var isSuccess: Bool { counts.failed == 0 && counts.passed > 0 }

    /// The final line of ``text``: `conformance: N passed, N failed, N skipped`.
    public var summaryLine: String {
        "conformance: \(counts.passed) passed, \(counts.failed) failed, \(counts.skipped) skipped"
    }

    /// The report as pretty-printed JSON with ISO 8601 dates.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }

    /// The report as JSON text (see `jsonData()`).
    public var json: String {
        do {
            return String(decoding: try jsonData(), as: UTF8.self)
        } catch {
            return #"{"error": "the report could not be encoded"}"#
        }
    }

    /// Reads a report written by `jsonData()`.
    package static func decode(json data: Data) throws -> ConformanceReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(ConformanceReport.self, from: data)
    }
}
