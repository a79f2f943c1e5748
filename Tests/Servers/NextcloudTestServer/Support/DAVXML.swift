import Foundation
import HTTPProviderKit
import ProviderAPI

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

    /// Reads a request body with the reader every XML Strata reads goes through (`XMLByteReader`:
    /// no DTD, no entities, UTF-8); a malformed document is a 400 Sabre `BadRequest`.
    static func parse(_ data: Data) throws(SabreError) -> DAVElement {
        let builder = Builder()
        do {
            let reader = XMLByteReader(delegate: builder, maxDepth: 65, maxTextLength: 1 << 20)
            try data.withUnsafeBytes { try reader.feed($0) }
            try reader.finish()
        } catch {
            throw SabreError.badRequest("The request body is not a well-formed XML document")
        }
        guard let root = builder.root else {
            throw SabreError.badRequest("The request body is not a well-formed XML document")
        }
        return root
    }

    /// Builds the elements; an element's text is all the character data directly inside it.
    private final class Builder: XMLByteReaderDelegate {
        var stack: [DAVElement] = []
        var root: DAVElement?

        func didStart(_ name: XMLName, reader: XMLByteReader) throws {
            if !stack.isEmpty { stack[stack.count - 1].text += reader.rawText }
            stack.append(DAVElement(name: QName(name.namespace, name.name)))
        }

        func didEnd(_ name: XMLName, reader: XMLByteReader) throws {
            guard var element = stack.popLast() else { return }
            element.text += reader.rawText
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }
    }
}
