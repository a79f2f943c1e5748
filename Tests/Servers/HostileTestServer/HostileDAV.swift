import Foundation

/// WebDAV answers for the hostile scenarios: a folder `/` holding entries, `OPTIONS` with a
/// `DAV` header, `PROPFIND` multistatus documents, and anything else from the scenario.
public enum HostileDAV {
    /// An entry of the served folder.
    public struct Entry: Sendable {
        /// The name (any characters: it is percent-encoded in the href).
        public var name: String
        /// The size a `PROPFIND` reports (`getcontentlength`); `nil` for a folder.
        public var size: Int?
        /// The `getcontentlength` text sent instead of ``size`` (any text: `-5`, `1e3`, digits past `Int64`).
        public var sizeText: String? = nil
        /// The `getlastmodified` text sent instead of the default date (year 0, 10000, 99999, …).
        public var modifiedText: String? = nil
        /// Whether it is a folder.
        public var isFolder: Bool { size == nil && sizeText == nil }

        /// A file entry.
        public static func file(_ name: String, size: Int) -> Entry { Entry(name: name, size: size) }
        /// A folder entry.
        public static func folder(_ name: String) -> Entry { Entry(name: name, size: nil) }
        /// A file entry whose `getcontentlength` and `getlastmodified` are sent as these texts, unchecked.
        public static func file(_ name: String, sizeText: String, modifiedText: String? = nil) -> Entry {
            Entry(name: name, size: nil, sizeText: sizeText, modifiedText: modifiedText)
        }
    }

    /// `OPTIONS`, `PROPFIND` of `/` and of each entry answered as a WebDAV class 1,2 server;
    /// every other request (and a `PROPFIND` of anything else, answered 404) goes to `other`.
    public static func route(
        entries: [Entry], other: @escaping @Sendable (HostileRequest, HostileContext) -> HostileResponse
    ) -> @Sendable (HostileRequest, HostileContext) -> HostileResponse {
        { request, context in
            switch request.method {
            case "OPTIONS":
                return .complete(200, headers: [("DAV", "1,2"), ("Allow", "OPTIONS, GET, PUT, PROPFIND, DELETE, MKCOL"), ("Server", "hostile")])
            case "PROPFIND":
                let depth = request.header("Depth") ?? "infinity"
                let path = request.path.removingPercentEncoding ?? request.path
                if path == "/" || path.isEmpty {
                    return multistatus(folder: "/", entries: depth == "0" ? [] : entries)
                }
                let name = String(path.dropFirst().split(separator: "/", omittingEmptySubsequences: true).first ?? "")
                if let entry = entries.first(where: { $0.name == name || $0.name + "/" == String(path.dropFirst()) }) {
                    return multistatus(only: entry)
                }
                return other(request, context)
            default:
                return other(request, context)
            }
        }
    }

    /// A 207 listing `folder` and `entries`.
    public static func multistatus(folder: String, entries: [Entry]) -> HostileResponse {
        var xml = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"#
        xml += response(href: folder, entry: nil)
        for entry in entries { xml += response(href: href(entry), entry: entry) }
        xml += "</d:multistatus>"
        return .complete(207, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(xml.utf8))
    }

    /// A 207 describing one entry.
    public static func multistatus(only entry: Entry) -> HostileResponse {
        let xml = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"#
            + response(href: href(entry), entry: entry) + "</d:multistatus>"
        return .complete(207, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(xml.utf8))
    }

    /// The href of an entry of `/`: every byte outside the unreserved set percent-encoded.
    public static func href(_ entry: Entry) -> String {
        "/" + encode(entry.name) + (entry.isFolder ? "/" : "")
    }

    /// Percent-encodes every byte of `name` outside `A-Z a-z 0-9 - . _ ~`.
    public static func encode(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// One `<d:response>` of a multistatus for `href` (the folder itself when `entry` is `nil`).
    public static func response(href: String, entry: Entry?) -> String {
        var props = "<d:getlastmodified>\(entry?.modifiedText ?? "Mon, 02 Jan 2023 10:00:00 GMT")</d:getlastmodified>"
        props += #"<d:getetag>"e1"</d:getetag>"#
        if let entry, let size = entry.sizeText ?? entry.size.map(String.init) {
            props += "<d:resourcetype/><d:getcontentlength>\(size)</d:getcontentlength>"
            props += "<d:getcontenttype>application/octet-stream</d:getcontenttype>"
        } else {
            props += "<d:resourcetype><d:collection/></d:resourcetype>"
        }
        return "<d:response><d:href>\(href)</d:href><d:propstat><d:prop>\(props)</d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    /// Deterministic content of `count` bytes (a repeating alphabet).
    public static func content(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    }
}
