import Foundation
import StrataTestSupport
import Testing
@testable import NuxeoTestServer

/// Recorded real-server JSON in `Tests/Fixtures/nuxeo` (`TestFixtures`).
enum Fixtures {
    struct Missing: Error, CustomStringConvertible { var description: String }

    static var directory: URL { TestFixtures.folder("nuxeo") }

    /// Loads a fixture; a missing or unreadable one throws (the test fails, never skips).
    static func load(_ relative: String) throws -> NXJSON {
        let url = directory.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "fixture not found: \(url.path)")
        }
        return try NXJSONParser.parse(data)
    }
}

/// Key-by-key shape comparison.
enum Shape {
    /// Every fixture key (except `notWritten`) must exist in `ours` with the same
    /// JSON type (a `null` on either side is accepted for keys in `nullable`);
    /// every key of `ours` absent from the fixture must be listed in `versionExtras`.
    static func compare(
        _ ours: NXJSON, _ fixture: NXJSON, versionExtras: Set<String> = [], notWritten: Set<String> = [],
        nullable: Set<String> = [], context: String
    ) {
        let ourKeys = Set(ours.keys)
        let fixtureKeys = Set(fixture.keys)
        for key in fixtureKeys.subtracting(notWritten).sorted() {
            guard let value = ours[key] else {
                Issue.record("\(context): key '\(key)' of the recording is missing")
                continue
            }
            let expected = fixture[key]?.typeName ?? "null"
            if value.typeName != expected, !(nullable.contains(key) && (value.isNull || expected == "null")) {
                Issue.record("\(context): '\(key)' is \(value.typeName), recording has \(expected)")
            }
        }
        for key in ourKeys.subtracting(fixtureKeys).subtracting(versionExtras).sorted() {
            Issue.record("\(context): unexpected key '\(key)' not in the recording")
        }
    }
}
