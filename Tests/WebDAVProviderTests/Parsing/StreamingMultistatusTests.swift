import Foundation
import NIOCore
import ProviderAPI
import Testing

@testable import WebDAVProvider

extension Parsing {
    /// The multistatus parser fed in pieces, as a listing's body arrives from the network.
    @Suite("MultistatusParser fed while the body streams")
    struct StreamingMultistatusTests {
        /// Parses `data` fed in pieces of `size` bytes.
        private func parseInPieces(_ data: Data, size: Int) throws -> [DAVResponse] {
            let parser = MultistatusParser()
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + size)
                try parser.feed(ByteBuffer(bytes: data[offset..<end]))
                offset = end
            }
            return try parser.finish()
        }

        @Test("every recording gives the same responses whatever the size of the pieces", arguments: Fixtures.multistatusNames)
        func piecesMatchWhole(_ name: String) throws {
            let data = try Fixtures.data(name)
            let whole = try MultistatusParser.parse(data)
            #expect(!whole.isEmpty)
            for size in [1, 2, 3, 7, 64, 1000] {
                #expect(try parseInPieces(data, size: size) == whole, "\(name) in pieces of \(size)")
            }
        }

        @Test("entities, character references, CDATA and multi-byte UTF-8 split across pieces")
        func splitTokens() throws {
            let document = #"""
                <?xml version="1.0" encoding="utf-8"?>
                <!-- a comment -->
                <d:multistatus xmlns:d="DAV:" xmlns:x="urn:x"><d:response><d:href>/caf&#xE9; &amp; th&#233;/&lt;&quot;&apos;&gt;/€😀/<![CDATA[a<b]]></d:href>
                <d:propstat><d:prop><x:note a='1' b="&amp;">  spaced  </x:note><d:resourcetype><d:collection/></d:resourcetype></d:prop>
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
                """#
            let data = Data(document.utf8)
            for size in [1, 2, 5] {
                let responses = try parseInPieces(data, size: size)
                #expect(responses.count == 1)
                #expect(responses.first?.href == "/café & thé/<\"'>/€😀/a<b")
                #expect(responses.first?.text("urn:x", "note") == "spaced")
                #expect(responses.first?.found[DAVPropertyName("DAV:", "resourcetype")]?.children == [DAVPropertyName("DAV:", "collection")])
                #expect(responses.first?.propstats.first?.status == 200)
            }
        }

        @Test("a DTD is refused as soon as its first bytes arrive, before the rest of the body")
        func dtdRefusedEarly() throws {
            let parser = MultistatusParser()
            #expect(throws: ProviderError.self) {
                try parser.feed(ByteBuffer(string: #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">"#))
            }
        }

        @Test("a body that stops mid-document is refused at the end")
        func cutShort() throws {
            let parser = MultistatusParser()
            try parser.feed(ByteBuffer(string: #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a</d:href></d:response>"#))
            #expect(throws: ProviderError.self) { try parser.finish() }
        }

        @Test("malformed references and markup are refused", arguments: [
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a&#0;</d:href></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a&#xD800;</d:href></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a & b</d:href></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:" a="<"><d:response><d:href>/a</d:href></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:" a=b><d:response><d:href>/a</d:href></d:response></d:multistatus>"#,
            "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a\u{1}</d:href></d:response></d:multistatus>",
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a</d:href></d:response></d:multistatus><d:multistatus xmlns:d="DAV:"/>"#,
            #"text<d:multistatus xmlns:d="DAV:"/>"#,
            #"<d:multistatus xmlns:d="DAV:"/>trailing"#,
        ])
        func malformed(_ text: String) {
            #expect(throws: ProviderError.self, "\(text)") { try MultistatusParser.parse(Data(text.utf8)) }
        }
    }
}
