import Foundation
import ProviderAPI

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A small XML document read into memory: element names, attributes, children and text.
///
/// For the XML answers of session APIs (Pydio's `<tree>` documents, registries, login results),
/// which are small and whose shape a ``ResponseRecognizer`` inspects. Reading is hardened as for
/// every XML document Strata reads (``XMLSafety``: no DTD, no entity, UTF-8), nesting, element
/// count and text are bounded, and a document cut short is refused (Foundation's parser on Linux
/// reports success for one). Unknown elements and attributes are kept, for callers to skip.
public struct XMLElementTree: Sendable, Hashable {
    /// The element name, without namespace processing.
    public var name: String
    /// The attributes, decoded.
    public var attributes: [String: String]
    /// The child elements, in order.
    public var children: [XMLElementTree]
    /// The element's own text (character data directly inside it), trimmed of nothing.
    public var text: String

    /// Creates an element.
    public init(name: String, attributes: [String: String] = [:], children: [XMLElementTree] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child element named `name`.
    public func child(_ name: String) -> XMLElementTree? { children.first { $0.name == name } }

    /// The child elements named `name`.
    public func children(named name: String) -> [XMLElementTree] { children.filter { $0.name == name } }

    /// The first element named `name` at any depth below this one, depth first.
    public func descendant(_ name: String) -> XMLElementTree? {
        for child in children {
            if child.name == name { return child }
            if let found = child.descendant(name) { return found }
        }
        return nil
    }

    /// Limits that bound the work a hostile document can cause.
    public struct Limits: Sendable {
        /// Deepest element nesting accepted.
        public var maxDepth = 64
        /// Most elements accepted.
        public var maxElements = 2_000_000
        /// Longest text of one element, in UTF-16 units.
        public var maxTextLength = 16 << 20
        /// Creates the default limits.
        public init() {}
    }

    /// Reads a document and returns its root element.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` for a malformed, truncated, oversized or unsafe document.
    public static func parse(_ data: Data, limits: Limits = Limits()) throws -> XMLElementTree {
        try XMLSafety.check(data)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder(limits: limits)
        parser.delegate = builder
        let ok = parser.parse()
        if let failure = builder.failure { throw failure }
        guard ok else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw ProviderError(.invalidResponse, "malformed XML at line \(parser.lineNumber): \(reason)")
        }
        guard let root = builder.root else {
            throw ProviderError(.invalidResponse, "the XML document ends before its root element is closed")
        }
        return root
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    let limits: XMLElementTree.Limits
    var stack: [XMLElementTree] = []
    /// The UTF-16 length of each open element's text, kept beside it: counting a non-ASCII
    /// `String`'s UTF-16 units walks it, and doing so on every callback made a long text quadratic.
    var textUnits: [Int] = []
    var root: XMLElementTree?
    var failure: ProviderError?
    var elements = 0

    init(limits: XMLElementTree.Limits) { self.limits = limits }

    private func fail(_ parser: XMLParser, _ message: String) {
        if failure == nil { failure = ProviderError(.invalidResponse, message) }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        elements += 1
        if root != nil { return fail(parser, "XML with content after its root element") }
        if stack.count >= limits.maxDepth { return fail(parser, "XML nested deeper than \(limits.maxDepth) elements") }
        if elements > limits.maxElements { return fail(parser, "XML with more than \(limits.maxElements) elements") }
        stack.append(XMLElementTree(name: elementName, attributes: attributeDict))
        textUnits.append(0)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        let top = stack.count - 1
        let units = textUnits[top] + string.utf16.count
        if units > limits.maxTextLength {
            return fail(parser, "XML text longer than \(limits.maxTextLength) characters")
        }
        textUnits[top] = units
        stack[top].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let element = stack.popLast() else { return fail(parser, "unbalanced XML") }
        textUnits.removeLast()
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil { failure = ProviderError(.invalidResponse, "malformed XML: \((parseError as NSError).localizedDescription)") }
    }
}
