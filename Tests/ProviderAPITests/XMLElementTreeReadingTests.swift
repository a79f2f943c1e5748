import Foundation
import ProviderAPI
import Testing
import HTTPProviderKit

/// `XMLElementTree` reads documents as Foundation's `XMLParser` (libxml2) did before it moved to
/// `XMLByteReader`: every recorded Pydio and OCS answer, and variants of them (line ends, white
/// space and references in attributes, prefixes, comments), read into the same tree with both.
/// One deliberate difference: a carriage return inside CDATA reads as a line feed, as XML 1.0
/// says, where libxml2 kept it.
@Suite("XMLElementTree reads as XML 1.0 says")
struct XMLElementTreeReadingTests {
    private func parse(_ text: String) throws -> XMLElementTree { try XMLElementTree.parse(Data(text.utf8)) }

    @Test("an element's text is all its character data, white space between children included")
    func textBetweenChildren() throws {
        let root = try parse("<tree>\n    <tree a=\"1\"/>\n    <b>x</b>\n</tree>")
        #expect(root.text == "\n    \n    \n")
        #expect(root.child("b")?.text == "x")
        #expect(try parse("<m>a<!-- c -->b<?pi d?>c<![CDATA[<&>]]>d</m>").text == "abc<&>d")
    }

    @Test("line ends read as a line feed; one written as a reference stays", arguments: ["\r\n", "\r", "\n"])
    func lineEnds(end: String) throws {
        #expect(try parse("<m>a\(end)b\(end)</m>").text == "a\nb\n")
        #expect(try parse("<m>a&#13;\(end)b</m>").text == "a\r\nb")
    }

    @Test("a line end split between two pieces is still one line end")
    func lineEndAcrossPieces() throws {
        final class Texts: XMLByteReaderDelegate {
            var texts: [String] = []
            func didStart(_ name: XMLName, reader: XMLByteReader) throws {}
            func didEnd(_ name: XMLName, reader: XMLByteReader) throws { texts.append(reader.rawText) }
        }
        let document = Array("<m>a\r\nb\r\r\nc</m>".utf8)
        for cut in 1..<document.count {
            let texts = Texts()
            let reader = XMLByteReader(delegate: texts, maxDepth: 8, maxTextLength: 100)
            try reader.feed(document[..<cut])
            try reader.feed(document[cut...])
            try reader.finish()
            #expect(texts.texts == ["a\nb\n\nc"], "cut at \(cut)")
        }
    }

    @Test("attribute values: references decoded, tabs and line ends written as such read as spaces")
    func attributeValues() throws {
        let root = try parse("<tree a=\"\t\r\n \nx\" b=\"/&#47;&amp;&lt;&#x1F600;&quot;&#13;&#10;&#9;/\" c='it&apos;s'/>")
        #expect(root.attributes["a"] == "    x")
        #expect(root.attributes["b"] == "//&<😀\"\r\n\t/")
        #expect(root.attributes["c"] == "it's")
    }

    @Test("names are read as written, prefixes and namespace declarations included; a prefix must be declared")
    func prefixes() throws {
        let root = try parse(#"<x:tree xmlns:x="u" xmlns="urn:a" p:q="1" xmlns:p="urn:b"><x:c/></x:tree>"#)
        #expect(root.name == "x:tree")
        #expect(root.attributes == ["xmlns:x": "u", "xmlns": "urn:a", "p:q": "1", "xmlns:p": "urn:b"])
        #expect(root.children.map(\.name) == ["x:c"])
        let error = #expect(throws: ProviderError.self) { try parse("<x:tree/>") }
        #expect(error?.code == .invalidResponse)
    }

    @Test("ISO-8859-1, when declared, reads in text, attribute values and names")
    func latin1() throws {
        let bytes: [UInt8] = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><caf"#.utf8) + [0xE9]
            + Array(#" n=""#.utf8) + [0xE9] + Array(#"">"#.utf8) + [0xE9, 0x0D, 0x0A] + Array("</caf".utf8) + [0xE9, 0x3E]
        let root = try XMLElementTree.parse(Data(bytes))
        #expect(root.name == "café")
        #expect(root.attributes["n"] == "é")
        #expect(root.text == "é\n")
    }

    @Test("a byte order mark is skipped; a DTD, an unknown entity or a second root is refused", arguments: [
        "<!DOCTYPE t><t/>", "<t>&nbsp;</t>", "<t/><t/>", "<t>", "<t></u>", "<t a=\"<\"/>", "<t a=\"1\"b=\"2\"/>",
    ])
    func refused(document: String) {
        let error = #expect(throws: ProviderError.self) { try parse(document) }
        #expect(error?.code == .invalidResponse)
    }

    @Test("a byte order mark before the document is skipped")
    func byteOrderMark() throws {
        #expect(try XMLElementTree.parse(Data([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?>\n<t/>".utf8))).name == "t")
    }
}
