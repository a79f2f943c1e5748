import Foundation
import StrataTestSupport
import Testing
@testable import NuxeoProvider

/// The parsing tests, grouped so that `swift test --filter NuxeoProviderTests.Parsing` runs them all.
@Suite("Nuxeo parsing") enum Parsing {}

/// The recorded server answers in `Tests/Fixtures/nuxeo/` (``TestFixtures``).
///
/// A missing folder or file is a test failure, never a skip.
enum Fixtures {
    static let folder: URL = TestFixtures.folder("nuxeo")

    /// Every JSON recording, relative to ``folder``; each has its own test below.
    static let jsonNames: [String] = [
        "nuxeo-drive/change_summary.json",
        "nuxeo-server/test-expected-document1.json",
        "php-client/audit-query.json",
        "php-client/cmis.json",
        "php-client/document-list.json",
        "php-client/document.json",
        "php-client/documentRoot.json",
        "php-client/exception.json",
        "php-client/login.json",
        "php-client/user.json",
    ]

    /// The JSON files actually in the folder, relative to it, sorted.
    static func discoveredJSONNames() throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var names: [String] = []
        let base = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        for case let url as URL in enumerator where url.pathExtension == "json" {
            let path = url.standardizedFileURL.path
            names.append(path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path)
        }
        return names.sorted()
    }

    /// The bytes of a recording; fails the test if it is missing.
    static func data(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        let url = folder.appendingPathComponent(name)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "fixture \(url.path) is missing: the recordings must be at Tests/Fixtures/nuxeo/",
            sourceLocation: sourceLocation)
        return try Data(contentsOf: url)
    }

    /// A date from seconds since 1970, for exact comparisons.
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
}

/// Whether two dates are within a millisecond.
func close(_ lhs: Date?, _ rhs: Date) -> Bool {
    guard let lhs else { return false }
    return abs(lhs.timeIntervalSince1970 - rhs.timeIntervalSince1970) < 0.0005
}
