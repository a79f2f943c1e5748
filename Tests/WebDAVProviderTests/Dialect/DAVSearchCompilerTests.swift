import Foundation
import ProviderAPI
import Testing

@testable import WebDAVProvider
import HTTPProviderKit

extension Dialect {
    @Suite("DAV SEARCH compiled from Query")
    struct DAVSearchCompilerTests {
        func body(_ query: Query, limit: Int? = 10) throws -> (DAVSearchCompiler.Compiled, XMLElementTree) {
            let compiled = try DAVSearchCompiler.compile(query)
            let text = DAVSearchCompiler.body(compiled, scopeHref: "/files/ann" + compiled.scope.description, properties: "<d:getetag/>", limit: limit)
            return (compiled, try XMLElementTree.parse(Data(text.utf8)))
        }

        @Test("name, kind, MIME family, size and time under a folder, ordered by name with a limit")
        func combined() throws {
            let after = Date(timeIntervalSince1970: 1_614_834_367)
            let (compiled, tree) = try body(.and([
                .under(ItemPath("/Docs")), .nameContains("report"), .kind(.file), .mimeType("image/*"),
                .size(min: 10, max: 20), .modified(after: after, before: nil),
            ]))
            #expect(compiled.scope == (ItemPath("/Docs")))
            #expect(tree.name == "d:searchrequest")
            let search = try #require(tree.child("d:basicsearch"))
            #expect(search.descendant("d:href")?.text == "/files/ann/Docs")
            #expect(search.descendant("d:depth")?.text == "infinity")
            #expect(search.descendant("d:nresults")?.text == "10")
            #expect(search.child("d:orderby")?.descendant("d:displayname") != nil)
            let and = try #require(search.child("d:where")?.child("d:and"))
            #expect(and.children.map(\.name) == ["d:like", "d:not", "d:like", "d:and", "d:gte"])
            let literals = try #require(search.child("d:where")).descendantsText("d:literal")
            #expect(literals == ["%report%", "image/%", "10", "20", "2021-03-04T05:06:07Z"])
        }

        @Test("text is escaped, so a query cannot inject markup")
        func escaping() throws {
            let (_, tree) = try body(.nameContains("a</d:literal><d:x/>&\u{1}"))
            #expect(tree.descendant("d:like")?.child("d:literal")?.text == "%a</d:literal><d:x/>&%")
            #expect(tree.descendant("d:x") == nil)
        }

        @Test("an empty condition matches every name; or, not and folders compile")
        func shapes() throws {
            let (compiled, tree) = try body(.under(.root), limit: nil)
            #expect(compiled.condition == nil)
            #expect(tree.descendant("d:where")?.descendant("d:literal")?.text == "%")
            #expect(tree.descendant("d:limit") == nil)
            let (_, or) = try body(.or([.kind(.folder), .not(.mimeType("text/plain"))]))
            #expect(or.descendant("d:or")?.children.map(\.name) == ["d:is-collection", "d:not"])
            #expect(or.descendant("d:eq")?.child("d:literal")?.text == "text/plain")
        }

        @Test("full text, and a scope inside or/not, are unsupported; two unrelated scopes are invalid")
        func refused() throws {
            #expect(throws: ProviderError.self) { try DAVSearchCompiler.compile(.fullText("x")) }
            #expect(throws: ProviderError.self) { try DAVSearchCompiler.compile(.or([.under(.root), .kind(.file)])) }
            #expect(throws: ProviderError.self) {
                try DAVSearchCompiler.compile(.and([.under(ItemPath("/a")), .under(ItemPath("/b"))]))
            }
            let nested = try DAVSearchCompiler.compile(.and([.under(ItemPath("/a")), .under(ItemPath("/a/b"))]))
            #expect(nested.scope == (ItemPath("/a/b")))
        }
    }
}

extension XMLElementTree {
    /// The texts of every element named `name` below this one, depth first.
    func descendantsText(_ name: String) -> [String] {
        children.flatMap { child in (child.name == name ? [child.text] : []) + child.descendantsText(name) }
    }
}
