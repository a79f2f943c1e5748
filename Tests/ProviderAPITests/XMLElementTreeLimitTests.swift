import Foundation
import ProviderAPI
import Testing
import HTTPProviderKit

/// The work a hostile document can cause `XMLElementTree` (Foundation's parser: Pydio's answers,
/// OCS envelopes) stays in proportion to its size.
@Suite("XMLElementTree and XMLSafety bound the parser's work")
struct XMLElementTreeLimitTests {
    private func element(attributes count: Int, quoted extra: String = "") -> Data {
        var text = "<tree"
        for index in 0..<count { text += " a\(index)=\"v\(extra)\"" }
        return Data((text + "/>").utf8)
    }

    @Test("an element with up to 256 attributes is read; one more is refused before the parser sees it")
    func attributeCount() throws {
        let tree = try XMLElementTree.parse(element(attributes: XMLSafety.maxAttributesPerElement))
        #expect(tree.attributes.count == XMLSafety.maxAttributesPerElement)
        let error = #expect(throws: ProviderError.self) { try XMLElementTree.parse(element(attributes: 257)) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message == "XML element with more than 256 attributes")
        // 100,000 attributes cost libxml2 seconds; they are refused after one pass over the bytes.
        let hostile = #expect(throws: ProviderError.self) { try XMLSafety.check(element(attributes: 100_000)) }
        #expect(hostile?.message == "XML element with more than 256 attributes")
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
        #expect(error?.message == "XML text longer than 10000 characters")
        // The count is per element: a sibling starts again from zero.
        #expect(try XMLElementTree.parse(Data("<r><a>\(fits)</a><b>\(fits)</b></r>".utf8), limits: limits).children.count == 2)
    }

    @Test("a long non-ASCII text is read in one pass (it took seconds per megabyte, growing with its square)", .timeLimit(.minutes(1)))
    func longNonASCIIText() throws {
        let text = String(repeating: "é", count: 4 << 20)
        let tree = try XMLElementTree.parse(Data("<r>\(text)</r>".utf8))
        #expect(tree.text.utf16.count == 4 << 20)
    }
}
