import Foundation
import ProviderAPI
import HTTPProviderKit

/// Maps item paths to request URLs and server hrefs back to item paths.
///
/// Every server escapes hrefs its own way (Apache lowercase with raw `&` and `+`,
/// nginx uppercase and raw, sabre lowercase and escaped, wsgidav uppercase), and
/// some send absolute URLs. Hrefs are split on `/` *before* percent-decoding, so
/// an encoded `%2F` can never create a path segment, and every decoded segment is
/// validated by ``ItemPath``: a `..` or another host is an
/// ``ProviderError/Code/invalidResponse``, never a path outside the root.
package struct DAVPathMapper: Sendable {
    /// The root collection, always ending in `/`.
    let root: URL
    private let origin: (scheme: String, host: String, port: Int)
    /// The root's decoded segments, as bytes: hrefs are compared with them byte by byte.
    private let rootBytes: [[UInt8]]

    package init(root: URL) throws {
        try URLChecks.requireValidPort(root)
        guard var components = URLComponents(url: root, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw ProviderError(.invalidArgument, "a WebDAV root must be an http or https URL") }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        var path = components.percentEncodedPath
        if !path.hasSuffix("/") { path += "/" }
        components.percentEncodedPath = path
        guard let normalised = components.url else { throw ProviderError(.invalidArgument, "invalid WebDAV root URL") }
        self.root = normalised
        self.origin = (scheme, host.lowercased(), components.port ?? (scheme == "https" ? 443 : 80))
        self.rootBytes = try DAVPathMapper.decodeSegments(path).map { Array($0.utf8) }
    }

    /// A name as one path segment: everything but RFC 3986 unreserved characters escaped.
    static func encode(segment: String) -> String {
        PercentEncoding.encode(segment, allowing: PercentEncoding.isUnreserved)
    }

    /// The URL of `path`; folders get a trailing `/`.
    func url(for path: ItemPath, folder: Bool = false) -> URL {
        var text = root.absoluteString
        text += path.segments.map(DAVPathMapper.encode(segment:)).joined(separator: "/")
        if folder, !path.isRoot { text += "/" }
        return URL(string: text) ?? root
    }

    /// The item path an href names, relative to the root.
    package func path(forHref href: String) throws -> ItemPath {
        var rest = Substring(href)
        // Most servers send absolute paths; only look for a scheme when the href is not one.
        if rest.utf8.first != UInt8(ascii: "/"), let schemeEnd = rest.range(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            let hostPort = authority.lowercased()
            let expectedPort = origin.port
            let defaultPort = scheme == "https" ? 443 : 80
            let host: String
            let port: Int
            if let colon = hostPort.lastIndex(of: ":"), !hostPort.hasSuffix("]") {
                host = String(hostPort[..<colon])
                port = Int(hostPort[hostPort.index(after: colon)...]) ?? -1
            } else {
                host = hostPort
                port = defaultPort
            }
            guard host == origin.host, port == expectedPort else {
                throw ProviderError(.invalidResponse, "the server named an item on another host: \(href.prefix(200))")
            }
            rest = rest[authorityEnd...]
            // A full URI may carry a query or a fragment, which are not part of the path.
            if let cut = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { rest = rest[..<cut] }
            // `http://host:port` names the server's root (RFC 3986 6.2.3: an empty path is `/`).
            if rest.isEmpty { rest = "/" }
        }
        guard rest.first == "/" else {
            throw ProviderError(.invalidResponse, "an href that is not an absolute path: \(href.prefix(200))")
        }
        // In an absolute-path href a raw `?` or `#` is part of the name (chezdav sends names
        // unescaped): a multistatus names resources, which have no query nor fragment of their own.
        // One pass: each segment is decoded, checked and compared with the root's as it is split off.
        let fast = try rest.utf8.withContiguousStorageIfAvailable { try DAVPathMapper.decode($0, below: rootBytes) }
            ?? Array(rest.utf8).withUnsafeBufferPointer { try DAVPathMapper.decode($0, below: rootBytes) }
        let decoded = try fast ?? DAVPathMapper.decodeBySplitting(rest, below: rootBytes)
        guard decoded.belowRoot else {
            throw ProviderError(.invalidResponse, "the server named an item outside the root: \(href.prefix(200))")
        }
        // `decode` refused every segment `ItemPath.validate(name:)` would (empty, `.`, `..`, `/`, NUL).
        return ItemPath(checkedSegments: decoded.segments)
    }

    /// Whether `href` holds a raw `?` or `#`. ``path(forHref:)`` cuts an href there (a query or a
    /// fragment names no other item), but a server that does not escape them in names (chezdav
    /// writes `p?q.txt` for the file `p?q.txt`) means them as part of the last name: cut, the
    /// href names another item (`p`), and two such files the same one.
    package static func hasRawQueryOrFragment(_ href: String) -> Bool {
        href.utf8.contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    }

    /// Splits an encoded path on `/` and percent-decodes each segment.
    static func decodeSegments(_ encodedPath: String) throws -> [String] {
        var path = encodedPath
        return try path.withUTF8 { try decode($0, below: []) }?.segments
            ?? decodeBySplitting(Substring(encodedPath), below: []).segments
    }

    /// ``decode(_:below:)`` for a path where a `/` is next to a byte that is not ASCII: the path is
    /// split on the `/` characters (a `/` followed by a combining mark, or after a prepended
    /// concatenation mark, is one character with it, not a separator), as hrefs always were.
    private static func decodeBySplitting(_ path: Substring, below root: [[UInt8]]) throws -> (segments: [String], belowRoot: Bool) {
        var segments: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            let decoded = try percentDecode(raw)
            if decoded == "." || decoded == ".." || decoded.utf8.contains(UInt8(ascii: "/")) || decoded.utf8.contains(0) {
                throw ProviderError(.invalidResponse, "the server sent a path segment that is not a name: \(raw.prefix(100))")
            }
            segments.append(decoded)
        }
        let belowRoot = segments.count >= root.count && zip(segments, root).allSatisfy { $0.utf8.elementsEqual($1) }
        return (Array(segments.dropFirst(root.count)), belowRoot)
    }

    /// Splits the encoded path in `bytes` on `/`, percent-decodes each segment and refuses one that
    /// is not a name (`.`, `..`, a decoded `/` or NUL, bytes that are not UTF-8), in one pass.
    /// The first `root.count` segments are compared with `root` by their bytes and left out of
    /// `segments`; `belowRoot` says whether they all matched (a path with fewer segments does not).
    /// Every segment is checked, even after one that left the root, so the same error wins as
    /// when the path is first decoded whole and then compared. `nil` when a `/` is next to a
    /// byte that is not ASCII, before or after it (see ``decodeBySplitting(_:below:)``).
    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, below root: [[UInt8]]
    ) throws -> (segments: [String], belowRoot: Bool)? {
        var segments: [String] = []
        var belowRoot = true
        var ordinal = 0
        var scratch: [UInt8] = []
        var index = 0
        let end = bytes.count
        while index < end {
            if bytes[index] == UInt8(ascii: "/") {
                // A `/` next to a byte that is not ASCII may be part of a larger character.
                if index > 0, bytes[index - 1] >= 0x80 { return nil }
                index += 1
                if index < end, bytes[index] >= 0x80 { return nil }
                continue
            }
            let start = index
            var escaped = false
            while index < end, bytes[index] != UInt8(ascii: "/") {
                if bytes[index] == UInt8(ascii: "%") { escaped = true }
                index += 1
            }
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
            let keep = ordinal >= root.count
            if escaped {
                scratch.removeAll(keepingCapacity: true)
                percentDecode(raw, into: &scratch)
                guard let text = String(validating: scratch, as: UTF8.self) else {
                    throw ProviderError(.invalidResponse, "the server sent a name that is not valid UTF-8")
                }
                try scratch.withUnsafeBufferPointer { try checkName($0, raw: raw) }
                if keep {
                    segments.append(text)
                } else if !root[ordinal].elementsEqual(scratch) {
                    belowRoot = false
                }
            } else {
                try checkName(raw, raw: raw)
                if keep {
                    segments.append(String(decoding: raw, as: UTF8.self))
                } else if !root[ordinal].elementsEqual(raw) {
                    belowRoot = false
                }
            }
            ordinal += 1
        }
        if ordinal < root.count { belowRoot = false }
        return (segments, belowRoot)
    }

    /// Refuses a decoded segment that cannot be a name: `.`, `..`, or one holding `/` or NUL.
    private static func checkName(_ name: UnsafeBufferPointer<UInt8>, raw: UnsafeBufferPointer<UInt8>) throws {
        let dots = name.count <= 2 && name.allSatisfy { $0 == UInt8(ascii: ".") }
        if dots || name.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 }) {
            let text = String(decoding: raw, as: UTF8.self)
            throw ProviderError(.invalidResponse, "the server sent a path segment that is not a name: \(text.prefix(100))")
        }
    }

    /// Appends `text` with its `%XX` escapes decoded to `output`; a `%` not followed by two hex digits is kept as it is.
    private static func percentDecode(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            if byte == UInt8(ascii: "%"), index + 2 < count, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
    }

    /// Decodes `%XX` escapes; a `%` not followed by two hex digits is kept as it is.
    static func percentDecode(_ text: Substring) throws -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw ProviderError(.invalidResponse, "the server sent a name that is not valid UTF-8")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
