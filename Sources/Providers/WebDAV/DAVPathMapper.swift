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
    private let rootSegments: [String]

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
        self.rootSegments = try DAVPathMapper.decodeSegments(path)
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
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
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
        }
        guard rest.first == "/" else {
            throw ProviderError(.invalidResponse, "an href that is not an absolute path: \(href.prefix(200))")
        }
        if let cut = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { rest = rest[..<cut] }
        let segments = try DAVPathMapper.decodeSegments(String(rest))
        guard segments.count >= rootSegments.count,
            zip(segments, rootSegments).allSatisfy({ DAVPathMapper.sameSegment($0, $1) })
        else {
            throw ProviderError(.invalidResponse, "the server named an item outside the root: \(href.prefix(200))")
        }
        do {
            return try ItemPath(segments: Array(segments.dropFirst(rootSegments.count)))
        } catch {
            throw ProviderError(.invalidResponse, "the server sent an invalid href: \(href.prefix(200))")
        }
    }

    /// Root segments are compared by their bytes, so NFC and NFD spellings stay distinct.
    private static func sameSegment(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// Splits an encoded path on `/` and percent-decodes each segment.
    static func decodeSegments(_ encodedPath: String) throws -> [String] {
        var segments: [String] = []
        for raw in encodedPath.split(separator: "/", omittingEmptySubsequences: true) {
            let decoded = try percentDecode(raw)
            if decoded == "." || decoded == ".." || decoded.utf8.contains(UInt8(ascii: "/")) || decoded.utf8.contains(0) {
                throw ProviderError(.invalidResponse, "the server sent a path segment that is not a name: \(raw.prefix(100))")
            }
            segments.append(decoded)
        }
        return segments
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
