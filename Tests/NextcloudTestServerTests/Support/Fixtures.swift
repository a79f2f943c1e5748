import Foundation
import StrataTestSupport

/// The recorded ownCloud/Nextcloud answers in `Tests/Fixtures/nextcloud` (`TestFixtures`).
enum Fixtures {
    struct Missing: Error, CustomStringConvertible { var description: String }

    static var directory: URL { TestFixtures.folder("nextcloud") }

    /// Every fixture file name except SOURCES.md.
    static func allNames() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "SOURCES.md" && !$0.hasPrefix(".") })
    }

    /// The bytes of a fixture; a missing file throws (the test fails, never skips).
    static func data(_ name: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            throw Missing(description: "fixture not found: \(name) in \(directory.path)")
        }
        return data
    }

    static func text(_ name: String) throws -> String { String(decoding: try data(name), as: UTF8.self) }

    /// The body of an ownCloud iOS SDK `.http` log block (after the first blank line).
    static func httpBody(_ name: String) throws -> String {
        let text = try self.text(name)
        guard let start = text.range(of: "<?xml"), let end = text.range(of: "</ocs>", options: .backwards) else { return text }
        return String(text[start.lowerBound..<end.upperBound])
    }
}
