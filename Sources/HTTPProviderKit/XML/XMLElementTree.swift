import Foundation
import ProviderAPI

/// A small XML document read into memory: element names, attributes, children and text.
///
/// For the XML answers of session APIs (Pydio's `<tree>` documents, registries, login results,
/// OCS envelopes), whose shape a response recognizer (the Pydio adapter's `ResponseRecognizer`) inspects. It is read by `XMLByteReader`,
/// the reader of every XML document Strata reads (no DTD, no entity but the predefined ones and
/// character references, UTF-8 or a declared ISO-8859-1 or ASCII); nesting, element count, text
/// and each tag are bounded, and a document cut short is refused. Unknown elements and attributes
/// are kept, for callers to skip. A listing page of any size is read in one pass.
package struct XMLElementTree: Sendable, Hashable {
    /// The element name, without namespace processing.
    package var name: String
    /// The attributes, decoded.
    package var attributes: [String: String]
    /// The child elements, in order.
    package var children: [XMLElementTree]
    /// The element's own text (character data directly inside it), trimmed of nothing.
    package var text: String

    /// Creates an element.
    package init(name: String, attributes: [String: String] = [:], children: [XMLElementTree] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child element named `name`.
    package func child(_ name: String) -> XMLElementTree? { children.first { $0.name == name } }

    /// The child elements named `name`.
    package func children(named name: String) -> [XMLElementTree] { children.filter { $0.name == name } }

    /// The first element named `name` at any depth below this one, depth first.
    package func descendant(_ name: String) -> XMLElementTree? {
        for child in children {
            if child.name == name { return child }
            if let found = child.descendant(name) { return found }
        }
        return nil
    }

    /// Limits that bound the work a hostile document can cause.
    package struct Limits: Sendable {
        /// Deepest element nesting accepted.
        package var maxDepth = 64
        /// Most elements accepted.
        package var maxElements = 2_000_000
        /// Longest text of one element, in UTF-16 units.
        package var maxTextLength = 16 << 20
        /// Longest tag (its name and attributes), comment, processing instruction or CDATA section, in bytes.
        package var maxMarkupLength = 1 << 20
        /// Creates the default limits.
        package init() {}
    }

    /// Reads a document and returns its root element.
    ///
    /// Element and attribute names are as written, prefixes included (`xmlns` declarations are
    /// attributes too), but a prefix must be declared. Text is every piece of character data
    /// directly inside the element, white space included, with line ends as `\n`; attribute
    /// values are normalised as XML says (a tab or line end written as such reads as a space).
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` for a malformed, truncated, oversized or unsafe document.
    package static func parse(_ data: Data, limits: Limits = Limits()) throws -> XMLElementTree {
        let builder = TreeBuilder(limits: limits)
        let reader = XMLByteReader(
            delegate: builder, maxDepth: limits.maxDepth, maxTextLength: limits.maxTextLength,
            maxMarkupLength: limits.maxMarkupLength, reportsAttributes: true)
        try data.withUnsafeBytes { try reader.feed($0) }
        try reader.finish()
        guard let root = builder.root else {
            throw ProviderError(.invalidResponse, "the XML document ends before its root element is closed")
        }
        return root
    }
}

/// Builds the tree from the reader's events: an element's text is every piece of character data
/// directly inside it, the pieces before its children's tags included.
private final class TreeBuilder: XMLByteReaderDelegate {
    let limits: XMLElementTree.Limits
    var stack: [XMLElementTree] = []
    /// The UTF-16 length of each open element's text, kept beside it: counting a non-ASCII
    /// `String`'s UTF-16 units walks it, and doing so for every piece made a long text quadratic.
    var textUnits: [Int] = []
    var root: XMLElementTree?
    var elements = 0

    init(limits: XMLElementTree.Limits) { self.limits = limits }

    func didStart(_ name: XMLName, reader: XMLByteReader) throws {
        // The text before this tag is the parent's.
        try addText(reader)
        elements += 1
        if elements > limits.maxElements {
            throw ProviderError(.invalidResponse, "XML with more than \(limits.maxElements) elements")
        }
        var attributes: [String: String] = [:]
        let reported = reader.attributes
        if !reported.isEmpty {
            attributes.reserveCapacity(reported.count)
            for (attribute, value) in reported { attributes[attribute] = value }
        }
        stack.append(XMLElementTree(name: reader.qualifiedName, attributes: attributes))
        textUnits.append(0)
    }

    func didEnd(_ name: XMLName, reader: XMLByteReader) throws {
        try addText(reader)
        guard let element = stack.popLast() else { throw ProviderError(.invalidResponse, "unbalanced XML") }
        textUnits.removeLast()
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    /// Appends the character data the reader read since the last tag to the open element's text.
    private func addText(_ reader: XMLByteReader) throws {
        let length = reader.rawTextLength
        guard length > 0, !stack.isEmpty else { return }
        let top = stack.count - 1
        let units = textUnits[top] + length
        if units > limits.maxTextLength {
            throw ProviderError(.invalidResponse, "XML element text longer than \(limits.maxTextLength)")
        }
        textUnits[top] = units
        stack[top].text += reader.rawText
    }
}
