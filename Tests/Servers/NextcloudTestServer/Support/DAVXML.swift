import Foundation
import HTTPProviderKit
import ProviderAPI

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A qualified XML name: namespace URI and local name (`{DAV:}getetag`).
struct QName: Hashable, Sendable {
    var namespace: String
    var local: String

    init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    static let dav = "DAV:"
    static let oc = "http://owncloud.org/ns"
    static let nc = "http://nextcloud.org/ns"
    static let ocs = "http://open-collaboration-services.org/ns"

    static func d(_ local: String) -> QName { QName(dav, local) }
    static func o(_ local: String) -> QName { QName(oc, local) }
    static func n(_ local: String) -> QName { QName(nc, local) }

    /// Clark notation, `{ns}local`.
    var clark: String { "{\(namespace)}\(local)" }
}

/// A request body element with namespaces resolved.
struct DAVElement: Sendable {
    var name: QName
    var children: [DAVElement] = []
    var text = ""

    func child(_ name: QName) -> DAVElement? { children.first { $0.name == name } }
    func children(_ name: QName) -> [DAVElement] { children.filter { $0.name == name } }

    /// Reads a request body. Safety as for every XML Strata reads (``XMLSafety``: no DTD, no
    /// entities, UTF-8); a malformed document is a 400 Sabre `BadRequest`.
    static func parse(_ data: Data) throws(SabreError) -> DAVElement {
        do {
            try XMLSafety.check(data)
        } catch {
            throw SabreError.badRequest("The request body is not a well-formed XML document")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        let ok = parser.parse()
        guard ok, !builder.failed, let root = builder.root else {
            throw SabreError.badRequest("The request body is not a well-formed XML document")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [DAVElement] = []
        var root: DAVElement?
        var failed = false

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            if root != nil || stack.count > 64 {
                failed = true
                parser.abortParsing()
                return
            }
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            stack.append(DAVElement(name: QName(namespaceURI ?? "", local)))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let element = stack.popLast() else {
                failed = true
                return
            }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { failed = true }
    }
}
