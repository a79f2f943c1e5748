import Foundation
import ProviderAPI

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Parses a WebDAV `207 Multi-Status` body with a SAX parser.
///
/// Hardened for hostile input: a document with a DTD (`<!DOCTYPE`, `<!ENTITY`) is
/// refused before parsing, so no external entity is ever opened and no entity is
/// expanded; external entity resolution stays off; nesting depth, element text
/// and the number of responses are bounded. Unknown elements are skipped and
/// properties are matched by namespace, never by prefix. Every failure is a
/// ``ProviderError`` with code ``ProviderError/Code/invalidResponse``.
public enum MultistatusParser {
    /// Limits that bound the work a hostile answer can cause.
    public struct Limits: Sendable {
        /// Deepest element nesting accepted.
        public var maxDepth = 64
        /// Longest text of one element, in UTF-16 units.
        public var maxTextLength = 1 << 20
        /// Most `response` elements accepted.
        public var maxResponses = 1_000_000
        /// Creates the default limits.
        public init() {}
    }

    /// Parses `data`.
    public static func parse(_ data: Data, limits: Limits = Limits()) throws -> [DAVResponse] {
        try XMLSafety.check(data)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let delegate = MultistatusDelegate(limits: limits)
        parser.delegate = delegate
        let ok = parser.parse()
        if let failure = delegate.failure { throw failure }
        guard ok else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw ProviderError(
                .invalidResponse, "malformed multistatus XML at line \(parser.lineNumber): \(reason)")
        }
        guard delegate.sawMultistatus else {
            throw ProviderError(.invalidResponse, "the answer is not a DAV:multistatus document")
        }
        // Foundation's XMLParser on Linux reports success for a document cut short (it never
        // tells libxml2 that the input ended), so a truncated answer must be caught here, or a
        // listing cut mid-transfer would look complete.
        guard delegate.closedMultistatus else {
            throw ProviderError(.invalidResponse, "the multistatus document ends before its closing tag")
        }
        return delegate.responses
    }
}

private final class MultistatusDelegate: NSObject, XMLParserDelegate {
    let limits: MultistatusParser.Limits
    var responses: [DAVResponse] = []
    var failure: ProviderError?
    var sawMultistatus = false
    var closedMultistatus = false

    // Element stack of qualified names.
    private var stack: [DAVPropertyName] = []
    private var text = ""

    private var response: DAVResponse?
    private var propstat: DAVPropstat?
    private var propName: DAVPropertyName?
    private var propChildren: [DAVPropertyName] = []
    private var propChildTexts: [String] = []

    init(limits: MultistatusParser.Limits) { self.limits = limits }

    private func fail(_ parser: XMLParser, _ message: String) {
        if failure == nil { failure = ProviderError(.invalidResponse, message) }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let name = DAVPropertyName(namespaceURI ?? "", elementName)
        stack.append(name)
        if stack.count > limits.maxDepth { return fail(parser, "XML nested deeper than \(limits.maxDepth) levels") }
        text = ""
        let depth = stack.count
        let isDAV = name.namespace == "DAV:"
        if depth == 1 {
            if isDAV && name.name == "multistatus" { sawMultistatus = true } else {
                return fail(parser, "expected DAV:multistatus, found \(name)")
            }
        } else if depth == 2, isDAV, name.name == "response" {
            if responses.count >= limits.maxResponses { return fail(parser, "more than \(limits.maxResponses) responses") }
            response = DAVResponse(href: "", status: nil, propstats: [], message: nil)
        } else if depth == 3, isDAV, name.name == "propstat", response != nil {
            propstat = DAVPropstat(status: 0, properties: [:])
        } else if depth == 5, propstat != nil, stack[3] == DAVPropertyName("DAV:", "prop") {
            propName = name
            propChildren = []
            propChildTexts = []
        } else if depth == 6, propName != nil {
            propChildren.append(name)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil else { return }
        if text.utf16.count + string.utf16.count > limits.maxTextLength {
            return fail(parser, "XML element text longer than \(limits.maxTextLength)")
        }
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard let name = stack.last else { return }
        let depth = stack.count
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let isDAV = name.namespace == "DAV:"
        if depth == 3, isDAV, name.name == "href" {
            response?.href = value
        } else if depth == 3, isDAV, name.name == "status" {
            response?.status = Self.statusCode(value)
        } else if depth == 3, isDAV, name.name == "responsedescription" || name.name == "error" {
            if !value.isEmpty { response?.message = value }
        } else if depth == 4, isDAV, name.name == "status", propstat != nil {
            propstat?.status = Self.statusCode(value) ?? 0
        } else if depth == 6, propName != nil, propChildTexts.count < propChildren.count {
            propChildTexts.append(value)
        } else if depth == 5, let propName, propName == name {
            propstat?.properties[propName] = DAVPropertyValue(text: value, children: propChildren, childTexts: propChildTexts)
            self.propName = nil
        } else if depth == 3, isDAV, name.name == "propstat", let done = propstat {
            response?.propstats.append(done)
            propstat = nil
        } else if depth == 2, isDAV, name.name == "response", let done = response {
            if done.href.isEmpty { return fail(parser, "a DAV:response without an href") }
            responses.append(done)
            response = nil
        } else if depth == 1 {
            closedMultistatus = true
        }
        stack.removeLast()
        text = ""
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, "XML entity declarations are refused")
    }

    func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {
        fail(parser, "XML entity declarations are refused")
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(parser, "external XML entities are refused")
        return nil
    }

    /// `HTTP/1.1 200 OK` → 200.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].uppercased().hasPrefix("HTTP/") else { return nil }
        return Int(parts[1])
    }
}
