import Foundation
import ProviderAPI
import Testing
import HTTPProviderKit

/// The work a hostile document can cause `XMLElementTree` (Pydio's answers, OCS envelopes, read
/// by `XMLByteReader`) stays in proportion to its size.
@Suite("XMLElementTree bounds the reader's work")
struct XMLElementTreeLimitTests {
    private func element(attributes count: Int, quoted extra: String = "") -> Data {
        var text = "<tree"
        for index in 0..<count { text += " a\(index)=\"v\(extra)\"" }
        return Data((text + "/>").utf8)
    }

    @Test("an element with up to 256 attributes is read; one more is refused")
    func attributeCount() throws {
        let tree = try XMLElementTree.parse(element(attributes: XMLByteReader.maxAttributes))
        #expect(tree.attributes.count == 256)
        let error = #expect(throws: ProviderError.self) { try XMLElementTree.parse(element(attributes: 257)) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message == "XML element with more than 256 attributes")
        // 60,000 attributes are refused at the 257th, not compared with each other.
        let hostile = #expect(throws: ProviderError.self) { try XMLElementTree.parse(element(attributes: 60_000)) }
        #expect(hostile?.message == "XML element with more than 256 attributes")
    }

    @Test("an attribute named twice is refused, as XML requires")
    func duplicateAttribute() throws {
        let error = #expect(throws: ProviderError.self) { try XMLElementTree.parse(Data(#"<tree a="1" b="2" a="3"/>"#.utf8)) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message?.contains("the attribute a named twice") == true)
    }

    @Test("'=' inside values, comments, CDATA and processing instructions is not counted as an attribute")
    func equalsElsewhere() throws {
        let many = String(repeating: "a=b ", count: 400)
        let text = "<?pi \(many)?><!-- \(many) --><tree x=\"\(many)\" y='\(many)'><![CDATA[\(many)]]>\(many)<n a=\"1\"/></tree>"
        let tree = try XMLElementTree.parse(Data(text.utf8))
        #expect(tree.attributes.count == 2)
        #expect(tree.children.map(\.name) == ["n"])
        #expect(tree.text.hasSuffix(many))
    }

    @Test("the text limit counts UTF-16 units across the parser's callbacks")
    func textLimitCountsUnits() throws {
        var limits = XMLElementTree.Limits()
        limits.maxTextLength = 10_000
        // "é" is one UTF-16 unit, "😀" two; libxml2 hands long text over in pieces of a few hundred bytes.
        let fits = String(repeating: "é", count: 5_000) + String(repeating: "😀", count: 2_500)
        let tree = try XMLElementTree.parse(Data("<r>\(fits)</r>".utf8), limits: limits)
        #expect(tree.text == fits)
        let error = #expect(throws: ProviderError.self) {
            try XMLElementTree.parse(Data("<r>\(fits)é</r>".utf8), limits: limits)
        }
        #expect(error?.message == "XML element text longer than 10000")
        // The count is per element: a sibling starts again from zero.
        #expect(try XMLElementTree.parse(Data("<r><a>\(fits)</a><b>\(fits)</b></r>".utf8), limits: limits).children.count == 2)
    }

    // 2 MB: the quadratic reading took seconds at this size already; 8 MB took 49 s in a debug
    // build on a loaded machine even read in one pass.
    @Test("a long non-ASCII text is read in one pass (it took seconds per megabyte, growing with its square)", .timeLimit(.minutes(5)))
    func longNonASCIIText() throws {
        let text = String(repeating: "é", count: 1 << 20)
        let tree = try XMLElementTree.parse(Data("<r>\(text)</r>".utf8))
        #expect(tree.text.utf16.count == 1 << 20)
    }
}
