import Foundation
import HTTPProviderKit
import ProviderAPI
import PydioProvider
import Testing

/// A listing page of several megabytes reads whole: Foundation's `XMLParser`, which Pydio's
/// answers went through before `XMLByteReader`, was reported to fail on documents from about
/// 1 MB (swift-corelibs-foundation#4851) and refuses any text or attribute past libxml2's 10 MB.
@Suite("Pydio listing pages larger than a megabyte")
struct PydioLargePageTests {
    /// A name of about 200 UTF-8 bytes, with characters of two and three bytes and XML's escapes.
    static func name(_ index: Int) -> String {
        "file \(index) " + String(repeating: "ä長名 & <x> ", count: 16) + "end.txt"
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// An `ls` page as pydio-core 8 sends it: the folder's `<tree>`, `count` child `<tree>`s, a `<pagination>`.
    static func page(count: Int) -> Data {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text += #"<tree filename="/big" text="big" is_file="false" ajxp_mime="ajxp_folder">"# + "\n"
        for index in 0..<count {
            let name = escaped(name(index))
            text += #"  <tree filename="/big/\#(name)" text="\#(name)" is_file="true" bytesize="\#(index)" "#
            text += #"ajxp_modiftime="1700000000" file_perms="0644" ajxp_mime="txt" mimestring_id="23"/>"# + "\n"
        }
        text += #"<pagination count="15000" total="3" current="1" overflowMessage="306" icon="folder.png"/></tree>"# + "\n"
        return Data(text.utf8)
    }

    // 1,600 nodes make a page of about 1.1 MB: over the size where XMLParser was reported to
    // fail, and small enough for a debug build on a loaded machine (5,000 nodes took 49 s there).
    @Test("a page of 1,600 nodes with long names (over 1 MB) reads completely, every name exact", .timeLimit(.minutes(5)))
    func largePage() throws {
        let data = Self.page(count: 1_600)
        #expect(data.count > 1 << 20)
        let answer = RecognizableAnswer(
            status: 200, headers: ["Content-Type": "text/xml; charset=UTF-8"], body: data, request: "GET /index.php?get_action=ls")
        let listing = try PydioRecognizers.chain(PydioRecognizers.listing).value(of: answer)
        #expect(listing.folder?.path == "/big")
        try #require(listing.children.count == 1_600)
        for (index, node) in listing.children.enumerated() where index % 100 == 0 || index == 1_599 {
            #expect(node.name == Self.name(index))
            #expect(node.path == "/big/" + Self.name(index))
            #expect(node.size == Int64(index))
        }
        #expect(Set(listing.children.map(\.path)).count == 1_600)
        #expect(listing.page?.current == 1 && listing.page?.total == 3)
        #expect(listing.declaredCount == 15_000)
        #expect(listing.hasNextPage)
    }

    @Test("the element count bounds a page, not its size in bytes")
    func elementLimit() throws {
        var limits = XMLElementTree.Limits()
        limits.maxElements = 1_000
        let data = Self.page(count: 1_000)
        let error = #expect(throws: ProviderError.self) { try XMLElementTree.parse(data, limits: limits) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message == "XML with more than 1000 elements")
        limits.maxElements = 1_002
        #expect(try XMLElementTree.parse(data, limits: limits).children.count == 1_001)
    }
}
