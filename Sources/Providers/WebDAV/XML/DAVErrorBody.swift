import Foundation
import ProviderAPI
import HTTPProviderKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads the message of a WebDAV error body (`<d:error><s:message>…`) as sabre/dav,
/// ownCloud and Nextcloud send it; other bodies (HTML pages) give `nil`.
package enum DAVErrorBody {
    package struct Parsed {
        package var message: String?
        package var exception: String?
        /// Names of the DAV:error precondition elements (`lock-token-submitted`, …).
        package var conditions: [String]
    }

    package static func parse(_ data: Data) -> Parsed? {
        guard (try? XMLSafety.check(data)) != nil else { return nil }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse(), delegate.isError else { return nil }
        return Parsed(message: delegate.message, exception: delegate.exception, conditions: delegate.conditions)
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var isError = false
        var message: String?
        var exception: String?
        var conditions: [String] = []
        var depth = 0
        var text = ""
        var textCount = 0

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            depth += 1
            text = ""
            textCount = 0
            if depth == 1 { isError = namespaceURI == "DAV:" && elementName == "error" }
            if depth == 2, namespaceURI == "DAV:" { conditions.append(elementName) }
            if depth > 32 { parser.abortParsing() }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            // Counted as it grows: text.count would walk the whole text on every callback.
            guard textCount < 4096 else { return }
            let piece = string.prefix(4096)
            text += piece
            textCount += piece.count
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if depth == 2, elementName == "message", !value.isEmpty { message = value }
            if depth == 2, elementName == "exception", !value.isEmpty { exception = value }
            depth -= 1
            text = ""
            textCount = 0
        }
    }
}
