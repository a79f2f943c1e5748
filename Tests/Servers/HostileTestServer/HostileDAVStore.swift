import Foundation
import NIOConcurrencyHelpers

/// A small WebDAV server that stores what it is sent (files and folders in memory), with quirks
/// seen on real servers that make it place files where the client did not ask (issue 30):
///
/// - ``Quirks/destinationCut``: a `MOVE` or `COPY` whose `Destination` it percent-decodes and then
///   reads as a URL, so the name is cut at the first `?` (a query), `;` (parameters) or `#` (a
///   fragment): `a%3Fb.txt` lands as `a`.
/// - ``Quirks/keepsPartialBodies``: a `PUT` whose body breaks off leaves what arrived (as rclone
///   serve), so Strata uploads through a temporary name and a `MOVE`.
/// - ``Quirks/ranges``: a `206` without `Content-Range`, one off by one, or a suffix range
///   (`bytes=-N`) answered by closing the connection.
///
/// Paths are kept decoded, one file or folder per path. Start a ``HostileServer`` with
/// ``scenario`` and read ``files`` to see where everything landed.
public final class HostileDAVStore: Sendable {
    /// What the server does wrong.
    public struct Quirks: Sendable {
        /// The characters at which a decoded `Destination` is cut.
        public var destinationCut: Set<Character>
        /// Whether a cut `PUT` leaves what arrived under its name.
        public var keepsPartialBodies: Bool
        /// How ranges are answered.
        public var ranges: Ranges

        /// How a `GET` with `Range` is answered.
        public enum Ranges: Sendable {
            /// A `206` with the bytes asked and their `Content-Range`.
            case right
            /// A `206` with the bytes asked and no `Content-Range`.
            case noContentRange
            /// A `206` with the `Content-Range` asked for and the bytes one further on.
            case offByOne
            /// Right, except a suffix range, answered by closing the connection.
            case dropsSuffix
        }

        /// Quirks; none by default.
        public init(destinationCut: Set<Character> = [], keepsPartialBodies: Bool = false, ranges: Ranges = .right) {
            self.destinationCut = destinationCut
            self.keepsPartialBodies = keepsPartialBodies
            self.ranges = ranges
        }
    }

    private struct State {
        var files: [String: (bytes: [UInt8], version: Int)] = [:]
        var folders: Set<String> = ["/"]
        var version = 0
    }

    /// What the server does wrong.
    public let quirks: Quirks
    private let state = NIOLockedValueBox(State())

    /// An empty store (only the root folder) with `quirks`.
    public init(_ quirks: Quirks) { self.quirks = quirks }

    /// Every file, by decoded path, with its content.
    public var files: [String: [UInt8]] { state.withLockedValue { $0.files.mapValues(\.bytes) } }

    /// A scenario answering every request from this store.
    public var scenario: HostileScenario {
        var scenario = HostileScenario("a WebDAV store with quirks") { [self] request, _ in answer(request) }
        scenario.seesCutRequests = true
        return scenario
    }

    private func answer(_ request: HostileRequest) -> HostileResponse {
        let path = Self.decoded(request.path)
        if request.cut {
            // The connection is gone: nothing is answered, and what arrived stays or not.
            if request.method == "PUT", quirks.keepsPartialBodies {
                state.withLockedValue { state in
                    if state.folders.contains(Self.parent(path)) { store(request.bodyPrefix, at: path, in: &state) }
                }
            }
            return HostileResponse([])
        }
        switch request.method {
        case "OPTIONS":
            return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile-store")])
        case "PROPFIND":
            return state.withLockedValue { propfind(path, depth: request.header("Depth") ?? "infinity", in: $0) }
        case "GET":
            return get(path, range: request.header("Range"))
        case "PUT":
            return state.withLockedValue { state in
                guard state.folders.contains(Self.parent(path)) else { return .text(409, "no parent") }
                if state.folders.contains(path) { return .text(405, "a folder") }
                let existed = state.files[path] != nil
                if existed, request.header("If-None-Match") == "*" { return .text(412, "exists") }
                store(request.bodyPrefix, at: path, in: &state)
                return .complete(existed ? 204 : 201, headers: [("ETag", "\"e\(state.version)\"")])
            }
        case "MKCOL":
            return state.withLockedValue { state in
                if state.folders.contains(path) || state.files[path] != nil { return .text(405, "exists") }
                guard state.folders.contains(Self.parent(path)) else { return .text(409, "no parent") }
                state.folders.insert(path)
                return .complete(201)
            }
        case "DELETE":
            return state.withLockedValue { state in
                guard state.folders.contains(path) || state.files[path] != nil else { return .text(404, "not found") }
                remove(path, in: &state)
                return .complete(204)
            }
        case "MOVE", "COPY":
            return transfer(request, from: path, move: request.method == "MOVE")
        default:
            return .text(405, "not allowed")
        }
    }

    private func store(_ bytes: [UInt8], at path: String, in state: inout State) {
        state.version += 1
        state.files[path] = (bytes, state.version)
    }

    private func remove(_ path: String, in state: inout State) {
        let prefix = path + "/"
        state.files = state.files.filter { $0.key != path && !$0.key.hasPrefix(prefix) }
        state.folders = state.folders.filter { $0 != path && !$0.hasPrefix(prefix) }
    }

    /// `MOVE` or `COPY` onto the `Destination` as this server reads it.
    private func transfer(_ request: HostileRequest, from path: String, move: Bool) -> HostileResponse {
        guard let destination = request.header("Destination"), let url = URLComponents(string: destination) else {
            return .text(400, "no Destination")
        }
        var target = Self.decoded(url.percentEncodedPath)
        // Decoded, then read as a URL: what follows a `?`, `;` or `#` is not part of the path.
        if let cut = target.firstIndex(where: quirks.destinationCut.contains) { target = String(target[..<cut]) }
        if target.count > 1, target.hasSuffix("/") { target.removeLast() }
        return state.withLockedValue { state in
            let isFolder = state.folders.contains(path)
            guard isFolder || state.files[path] != nil else { return .text(404, "not found") }
            guard state.folders.contains(Self.parent(target)) else { return .text(409, "no parent") }
            let existed = state.folders.contains(target) || state.files[target] != nil
            if existed, request.header("Overwrite") == "F" { return .text(412, "exists") }
            if existed { remove(target, in: &state) }
            let prefix = path + "/"
            for (key, value) in state.files where key == path || key.hasPrefix(prefix) {
                state.files[target + key.dropFirst(path.count)] = value
            }
            for key in state.folders where key == path || key.hasPrefix(prefix) {
                state.folders.insert(target + key.dropFirst(path.count))
            }
            if move { remove(path, in: &state) }
            return .complete(existed ? 204 : 201)
        }
    }

    private func get(_ path: String, range: String?) -> HostileResponse {
        guard let file = state.withLockedValue({ $0.files[path] }) else { return .text(404, "not found") }
        let content = file.bytes
        let etag = ("ETag", "\"e\(file.version)\"")
        guard let range, let bytes = Self.range(range, size: content.count) else {
            return .complete(200, headers: [("Content-Type", "application/octet-stream"), etag], body: content)
        }
        var headers = [("Content-Type", "application/octet-stream"), etag]
        switch quirks.ranges {
        case .dropsSuffix where range.hasPrefix("bytes=-"):
            return HostileResponse([])
        case .noContentRange:
            return .complete(206, headers: headers, body: Array(content[bytes]))
        case .offByOne:
            headers.append(("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(content.count)"))
            let lower = bytes.lowerBound + 1
            let upper = min(bytes.upperBound + 1, content.count - 1)
            return .complete(206, headers: headers, body: lower <= upper ? Array(content[lower...upper]) : [])
        case .right, .dropsSuffix:
            headers.append(("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(content.count)"))
            return .complete(206, headers: headers, body: Array(content[bytes]))
        }
    }

    private func propfind(_ path: String, depth: String, in state: State) -> HostileResponse {
        let isFolder = state.folders.contains(path)
        guard isFolder || state.files[path] != nil else { return .text(404, "not found") }
        var xml = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"#
        xml += entry(path, in: state)
        if isFolder, depth == "1" {
            let prefix = path == "/" ? "/" : path + "/"
            let children = (state.folders.filter { $0 != path } + state.files.keys).filter {
                $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/")
            }
            for child in children.sorted() { xml += entry(child, in: state) }
        }
        xml += "</d:multistatus>"
        return .complete(207, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(xml.utf8))
    }

    private func entry(_ path: String, in state: State) -> String {
        let isFolder = state.folders.contains(path)
        let href = path == "/" ? "/" : path.split(separator: "/").map { HostileDAV.encode(String($0)) }.map { "/" + $0 }.joined() + (isFolder ? "/" : "")
        var props = "<d:getlastmodified>Mon, 02 Jan 2023 10:00:00 GMT</d:getlastmodified>"
        if let file = state.files[path] {
            props += "<d:resourcetype/><d:getcontentlength>\(file.bytes.count)</d:getcontentlength><d:getetag>\"e\(file.version)\"</d:getetag>"
        } else {
            props += "<d:resourcetype><d:collection/></d:resourcetype>"
        }
        return "<d:response><d:href>\(href)</d:href><d:propstat><d:prop>\(props)</d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    /// The bytes a `Range` header asks of `size` bytes (`bytes=a-b`, `bytes=a-`, `bytes=-n`).
    static func range(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty, let count = Int(parts[1]), count > 0 { return max(0, size - count)...(size - 1) }
        guard let start = Int(parts[0]), start < size else { return nil }
        let end = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? size - 1, size - 1)
        return start <= end ? start...end : nil
    }

    /// A percent-encoded path decoded, without its trailing slash.
    static func decoded(_ path: String) -> String {
        var decoded = path.removingPercentEncoding ?? path
        if decoded.isEmpty { decoded = "/" }
        if decoded.count > 1, decoded.hasSuffix("/") { decoded.removeLast() }
        return decoded
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
