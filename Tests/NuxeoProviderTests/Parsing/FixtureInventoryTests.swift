import Foundation
import Testing
@testable import NuxeoProvider

extension Parsing {
    @Suite("Fixture inventory") struct FixtureInventoryTests {
        @Test("every JSON recording in the fixture folder has a parser test, and none is missing")
        func inventoryMatches() throws {
            try #require(
                FileManager.default.fileExists(atPath: Fixtures.folder.path),
                "the fixture folder \(Fixtures.folder.path) is missing")
            #expect(try Fixtures.discoveredJSONNames() == Fixtures.jsonNames.sorted())
        }

        @Test("every JSON recording parses as JSON", arguments: Fixtures.jsonNames)
        func everyRecordingParses(name: String) throws {
            let json = try NuxeoJSON.parse(try Fixtures.data(name))
            #expect(json.objectValue != nil || json.arrayValue != nil)
        }

        @Test("the Python excerpt next to the Drive recording is present")
        func driveExcerptPresent() throws {
            let text = String(decoding: try Fixtures.data("nuxeo-drive/change_summary.py.txt"), as: UTF8.self)
            #expect(text.contains("\"upperBound\": 7834"))
        }
    }
}
