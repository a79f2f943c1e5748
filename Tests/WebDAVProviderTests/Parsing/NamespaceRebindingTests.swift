import Foundation
import NIOCore
import ProviderAPI
import ProviderConformance
import Testing

@testable import WebDAVProvider

extension Parsing {
    /// The reader remembers the names it has resolved; a prefix bound again must still resolve anew.
    @Suite("Element names follow their prefix's current binding")
    struct NamespaceRebindingTests {
        private let document = #"""
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:" xmlns:x="urn:one">
            <D:response xmlns:lp1="DAV:"><D:href>/a</D:href><D:propstat><D:prop><x:note>one</x:note>
            <lp1:getetag>"e1"</lp1:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response xmlns:x="urn:two" xmlns:lp1="urn:not-dav"><D:href>/b</D:href><D:propstat><D:prop><x:note>two</x:note>
            <lp1:getetag>"e2"</lp1:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/c</D:href><D:propstat><D:prop><x:note>three</x:note><D:getetag xmlns:D="urn:other">"e3"</D:getetag>
            <note xmlns="urn:default">four</note><note>five</note></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            </D:multistatus>
            """#

        @Test("a prefix bound again inside a response, and a default namespace, resolve to the new namespace")
        func rebinding() throws {
            for size in [1, 5, 64, 100_000] {
                let parser = MultistatusParser()
                let bytes = Array(document.utf8)
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + size)
                    try parser.feed(ByteBuffer(bytes: bytes[offset..<end]))
                    offset = end
                }
                let responses = try parser.finish()
                #expect(responses.map(\.href) == ["/a", "/b", "/c"])
                let found = responses.map(\.found)
                #expect(found[0][DAVPropertyName("urn:one", "note")]?.text == "one")
                #expect(found[0][.getetag]?.text == "\"e1\"")
                #expect(found[1][DAVPropertyName("urn:two", "note")]?.text == "two")
                #expect(found[1][DAVPropertyName("urn:one", "note")] == nil)
                #expect(found[1][.getetag] == nil, "lp1 is not DAV: in the second response")
                #expect(found[1][DAVPropertyName("urn:not-dav", "getetag")]?.text == "\"e2\"")
                #expect(found[2][DAVPropertyName("urn:one", "note")]?.text == "three", "the outer binding is back")
                #expect(found[2][.getetag] == nil)
                #expect(found[2][DAVPropertyName("urn:other", "getetag")]?.text == "\"e3\"")
                #expect(found[2][DAVPropertyName("urn:default", "note")]?.text == "four")
                #expect(found[2][DAVPropertyName("", "note")]?.text == "five")
            }
        }

        @Test("a prefix that goes out of scope is refused where it is used again")
        func unboundAfterScope() throws {
            let text = #"""
                <D:multistatus xmlns:D="DAV:"><D:response xmlns:y="urn:y"><D:href>/a</D:href><y:z/></D:response>
                <D:response><D:href>/b</D:href><y:z/></D:response></D:multistatus>
                """#
            #expect(throws: ProviderError.self) { try MultistatusParser.parse(Data(text.utf8)) }
        }

        @Test("items are sorted by the bytes of their names, whatever order they came in")
        func sortByName() throws {
            let names = ["b", "a", "é", "e\u{301}", "Z", "a0", "résumé", "10", "2", "~", "ab", "aa"]
            for seed in 0..<20 {
                var generator = SplitMix64(seed: UInt64(seed))
                var items = try names.shuffled(using: &generator).map { Item(path: try ItemPath.root.appending($0), kind: .file) }
                WebDAVProvider.sortByName(&items)
                let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                #expect(items.map(\.name) == sorted)
                #expect(items.map(\.id) == sorted.map { "/" + $0 }, "each item moved whole")
            }
        }

        @Test("names alike in their first 16 bytes, prefixes of each other and not ASCII are sorted by their bytes too")
        func sortByNameLongPrefixes() throws {
            let base = "entry-0000000001"  // 16 bytes
            var names = [
                base, base + "0", base + "\u{1}", base + "a", base + "é", base + "~", base + "0a", base + "00", "entry-0000000000",
                "entry-000000000", "entry-00000000011", "entry-0000000001\u{7F}", "entry-000000000\u{80}", "entry-000000000é",
                "\u{1}", "\u{1}\u{1}", "\u{FF}", "ÿ", "日本語のとても長いファイル名", "日本語のとても長いファイル名2", "x", "xy", "xyz",
                "a long name that is not a small string", "a long name that is not a small string!", "a long name that is not",
            ]
            names += (0..<200).map { String(format: "entry-%05d.txt", $0 * 7919 % 200) }
            names += (0..<50).map { "same-sixteen-byt" + String($0) }
            for seed in 0..<10 {
                var generator = SplitMix64(seed: UInt64(seed))
                var items = try names.shuffled(using: &generator).map { Item(path: try ItemPath.root.appending($0), kind: .file) }
                WebDAVProvider.sortByName(&items)
                #expect(items.map(\.name) == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            }
        }
    }
}
