import Foundation

/// A property value as Sabre writes it.
enum PropValue: Sendable {
    /// Text content, escaped when written; an empty text is still written `<x></x>` (PHP strings).
    case text(String)
    /// Inner XML already escaped; empty is written `<x/>` (PHP `null`, empty lists, `resourcetype` of a file).
    case xml(String)
}

/// Writes a `d:multistatus` document in Sabre's compact form, with the namespace prefixes of
/// ownCloud (`d`, `s`, `oc`) or Nextcloud (`d`, `s`, `oc`, `nc`).
struct MultistatusWriter {
    private(set) var text: String
    private let prefixes: [String: String]

    init(flavor: NextcloudTestServer.Configuration.Flavor) {
        var prefixes = [QName.dav: "d", "http://sabredav.org/ns": "s", QName.oc: "oc"]
        var head = "<?xml version=\"1.0\"?>\n<d:multistatus xmlns:d=\"DAV:\" xmlns:s=\"http://sabredav.org/ns\" xmlns:oc=\"http://owncloud.org/ns\""
        if flavor == .nextcloud {
            prefixes[QName.nc] = "nc"
            head += " xmlns:nc=\"http://nextcloud.org/ns\""
        }
        self.prefixes = prefixes
        text = head + ">"
    }

    /// One `d:response`: the found properties with status 200, then each other group
    /// (`404 Not Found`, `403 Forbidden`, …) in the order given; an empty group is left out.
    mutating func response(
        href: String, found: [(QName, PropValue)], groups: [(status: String, names: [QName])] = [], statusFirst: Bool = false
    ) {
        text += "<d:response>"
        // Nextcloud 18's filter-files REPORT put a response-level status before the href.
        if statusFirst { text += "<d:status>HTTP/1.1 200 OK</d:status>" }
        text += "<d:href>\(XMLText.escape(href))</d:href>"
        if !found.isEmpty {
            text += "<d:propstat><d:prop>"
            for (name, value) in found { text += element(name, value) }
            text += "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
        }
        for group in groups where !group.names.isEmpty {
            text += "<d:propstat><d:prop>"
            for name in group.names { text += element(name, .xml("")) }
            text += "</d:prop><d:status>HTTP/1.1 \(group.status)</d:status></d:propstat>"
        }
        text += "</d:response>"
    }

    /// The document, closed.
    func finish() -> String { text + "</d:multistatus>\n" }

    private func element(_ name: QName, _ value: PropValue) -> String {
        let open: String
        let close: String
        if let prefix = prefixes[name.namespace] {
            open = "\(prefix):\(name.local)"
            close = open
        } else {
            open = "x1:\(name.local) xmlns:x1=\"\(XMLText.escape(name.namespace))\""
            close = "x1:\(name.local)"
        }
        switch value {
        case .text(let inner): return "<\(open)>\(XMLText.escape(inner))</\(close)>"
        case .xml(let inner): return inner.isEmpty ? "<\(open)/>" : "<\(open)>\(inner)</\(close)>"
        }
    }

    /// Renders `inner` for a nested element in the document's prefixes (`<d:collection/>`).
    static let collection = "<d:collection/>"
}
