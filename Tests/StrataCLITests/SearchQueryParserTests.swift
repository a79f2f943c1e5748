import Foundation
import ProviderAPI
import Testing

@testable import StrataCLI

@Suite("strata search query syntax")
struct SearchQueryParserTests {
    @Test("terms become portable predicates, all AND-ed, below the folder")
    func terms() throws {
        let query = try SearchQueryParser.parse(#"name:"two words" type:file mime:image/* report"#, under: "/Reports")
        #expect(query == .and([.nameContains("two words"), .kind(.file), .mimeType("image/*"), .fullText("report"), .under("/Reports")]))
    }

    @Test("a single term at the root is that term alone")
    func single() throws {
        #expect(try SearchQueryParser.parse("name:q3", under: .root) == .nameContains("q3"))
        #expect(try SearchQueryParser.parse("text:invoice", under: .root) == .fullText("invoice"))
    }

    @Test("size and date bounds merge into one range each")
    func ranges() throws {
        let query = try SearchQueryParser.parse("size>=1k size<2m modified>2024-01-01 modified<2024-02-01", under: .root)
        let after = Date(timeIntervalSince1970: 1_704_067_200)
        let before = Date(timeIntervalSince1970: 1_706_745_600)
        guard case .and(let parts) = query else {
            Issue.record("not a conjunction: \(query)")
            return
        }
        #expect(parts.contains(.modified(after: after, before: before)))
        #expect(parts.contains { part in
            if case .size(let min, let max) = part { return min == 1024 && (max == 2 * 1_048_576 - 1 || max == 2 * 1_048_576) }
            return false
        })
    }

    @Test("text starting with SELECT is native and untouched")
    func native() throws {
        let nxql = "SELECT * FROM Document WHERE dc:title = 'a+b'"
        #expect(try SearchQueryParser.parse("  \(nxql)", under: "/x") == .native(nxql))
        #expect(try SearchQueryParser.parse("selection", under: .root) == .fullText("selection"))
    }

    @Test("malformed queries are refused before any request")
    func malformed() {
        for bad in ["", "   ", "type:socket", "size>lots", "modified<yesterday", #"name:"unclosed"#, "color:red"] {
            #expect(throws: (any Error).self, "\(bad.debugDescription) was accepted") {
                _ = try SearchQueryParser.parse(bad, under: .root)
            }
        }
    }
}
