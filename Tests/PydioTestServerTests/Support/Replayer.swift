import Foundation
import Testing

/// Compares answers with the recordings and remembers which ones it checked.
final class Replayer: @unchecked Sendable {
    private(set) var covered: Set<String> = []

    /// The body (normalised) must equal `<name>.body`; status and
    /// `Content-Type` must equal `<name>.http` when that file exists.
    func check(_ name: String, _ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        covered.insert(name)
        let expected = Recordings.normalize(try Recordings.body(name))
        let actual = Recordings.normalize(response.text)
        #expect(actual == expected, "\(name): body differs\n ours: \(actual)\n real: \(expected)", sourceLocation: sourceLocation)
        let httpURL = Recordings.directory.appendingPathComponent("\(name).http")
        if FileManager.default.fileExists(atPath: httpURL.path) {
            let head = try Recordings.head(name)
            #expect(response.status == head.status, "\(name): status", sourceLocation: sourceLocation)
            let recorded = head.headers.first { $0.0.caseInsensitiveCompare("Content-Type") == .orderedSame }?.1
            #expect(response.header("Content-Type") == recorded, "\(name): Content-Type", sourceLocation: sourceLocation)
        } else {
            #expect(response.status == 200, "\(name): status", sourceLocation: sourceLocation)
        }
    }

    /// A recording checked by other means (binary captcha).
    func markCovered(_ name: String) {
        covered.insert(name)
    }

    /// Recorded headers that must be present with the same value (for downloads).
    func checkHeaders(_ name: String, _ response: TestResponse, _ names: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let head = try Recordings.head(name)
        for header in names {
            let recorded = head.headers.first { $0.0.caseInsensitiveCompare(header) == .orderedSame }?.1
            let ours = response.header(header).map(Recordings.normalize)
            #expect(ours == recorded.map(Recordings.normalize), "\(name): header \(header)", sourceLocation: sourceLocation)
        }
    }
}
