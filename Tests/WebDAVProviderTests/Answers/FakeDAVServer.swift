import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import WebDAVProvider
import HTTPProviderKit

/// A small WebDAV server in memory whose shortcomings can be chosen: whether it honours PUT
/// preconditions, refuses MKCOL over a folder, lists dot-files, keeps a cut PUT's partial body,
/// refuses or changes characters in names, normalises names, decodes a `Destination` and cuts it,
/// decodes paths twice, merges folders on `MOVE` or `COPY`, answers ranges wrong, and what
/// `Server` it names.
///
/// Each instance has an origin of its own, so what a provider process remembers about one
/// fake server never leaks into another test.
final class FakeDAVServer: HTTPTransport {
    struct Behaviour: Sendable {
        var server: String?
        var honoursPreconditions = true
        var mkcolRefusesExisting = true
        var listsDotFiles = true
        /// A PUT whose body breaks off leaves what arrived under its name (as rclone serve).
        var keepsPartialBodies = false
        /// Characters a PUT or MKCOL of a name containing them is refused for (400).
        var refusedCharacters: Set<Character> = []
        /// Characters stored as `_` (the listing shows the changed name).
        var mangledCharacters: Set<Character> = []
        /// A name starting with a space is refused (400).
        var refusesLeadingSpace = false
        /// The normalisation names are stored in (a request finds a name in either form).
        var normalization: NameRules.Normalization = .preserved
        /// A folder `MOVE`d with `Overwrite: T` onto an existing folder is merged into it (as
        /// lighttpd does) instead of replacing it.
        var mergesFolders = false
        /// A request finds a name whatever its case (the first spelling written is kept and listed),
        /// as `rclone serve webdav --vfs-case-insensitive` and the file systems of macOS and Windows.
        var foldsCase = false
        /// Names are kept as sent, but a request finds a name in its other normalisation (as APFS).
        var findsOtherNormalization = false
        /// A `MOVE` or `COPY` whose `Destination` is decoded and cut at the first of these characters
        /// (the server reads the decoded text as a URL: `?` starts a query, `;` parameters, `#` a fragment).
        var destinationCut: Set<Character> = []
        /// Request paths are percent-decoded twice (`a%2541b` is `aAb`).
        var decodesTwice = false
        /// A folder `COPY`d with `Overwrite: T` onto an existing folder is merged into it.
        var copyMergesFolders = false
        /// How a `GET` with `Range` is answered.
        var ranges: Ranges = .right
        /// `COPY` is not implemented (501).
        var refusesCopy = false
        /// A trailing dot or space is dropped from a stored name (as Windows file systems do).
        var stripsTrailing = false
        /// A `PUT` or `MKCOL` of a name longer than this many UTF-8 bytes is refused (400).
        var maxNameBytes: Int?
        /// How a `PROPFIND` with `Depth: infinity` is answered.
        var depthInfinity: DepthInfinity = .refused

        /// How a `PROPFIND` with `Depth: infinity` is answered.
        enum DepthInfinity: Sendable {
            /// 403, as nginx, lighttpd, copyparty and chezdav.
            case refused
            /// 207 with the whole tree, as Apache and rclone serve.
            case whole
            /// 207 with the children only, as sabre/dav.
            case oneLevel
            /// 207 with the whole tree but for everything below the folder at this path (which
            /// is named, empty): a server that proves right, then answers short.
            case omitting(String)
        }

        /// How ranges are answered.
        enum Ranges: Sendable {
            /// A `206` with the bytes asked and their `Content-Range`.
            case right
            /// A `206` with the bytes asked and no `Content-Range`.
            case noContentRange
            /// A `206` with the `Content-Range` asked for, and the bytes one further on.
            case offByOne
            /// Right, but a suffix range (`bytes=-N`) drops the connection.
            case dropsSuffix
            /// `Range` ignored: `200` and the whole file.
            case ignored
        }

        var changesNames: Bool {
            !mangledCharacters.isEmpty || normalization != .preserved || decodesTwice || !destinationCut.isEmpty || stripsTrailing
        }
    }

    /// The connection dropped under a request.
    struct Dropped: Error {}

    private struct State {
        var files: [String: (bytes: [UInt8], etag: String)] = [:]
        var folders: Set<String> = ["/"]
        var version = 0
        var requests: [String] = []
    }

    let behaviour: Behaviour
    let origin = "http://127.0.0.1:\(Int.random(in: 20000...60000))"
    private let state = NIOLockedValueBox(State())

    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    /// The requests seen so far, as `METHOD path`.
    var requests: [String] { state.withLockedValue { $0.requests } }

    /// The content of the file at `path`, if there is one.
    func content(_ path: String) -> String? { state.withLockedValue { $0.files[path].map { String(decoding: $0.bytes, as: UTF8.self) } } }

    /// The paths of every file.
    var filePaths: [String] { state.withLockedValue { $0.files.keys.sorted() } }

    func configuration() -> ProviderConfiguration {
        ProviderConfiguration(
            url: URL(string: origin + "/")!, credentials: .basic(username: "u", password: "p"), transport: self,
            retry: RetryPolicy(maxAttempts: 1))
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var body: [UInt8] = []
        switch request.body {
        case .bytes(let buffer)?: body = Array(buffer.readableBytesView)
        case .source(let source)?:
            do {
                for try await piece in try source.makeStream() { body += Array(piece.readableBytesView) }
            } catch {
                // The connection broke off in the body: a server that writes straight into the
                // target keeps what arrived (and the old content is gone).
                let path = key(of: request.url)
                if behaviour.keepsPartialBodies, request.method == .PUT {
                    state.withLockedValue { state in
                        state.requests.append("PUT \(path) (cut)")
                        if state.folders.contains(Self.parent(path)) { state.files[path] = (body, "\"cut\"") }
                    }
                }
                throw error
            }
        case nil: break
        }
        let raw = String(request.url.absoluteString.dropFirst(origin.count))
        let path = key(of: request.url)
        let refused = Self.refuses(Self.path(of: request.url, origin: origin), behaviour)
        let target = request.headers.first(name: "Destination").flatMap(URL.init(string:)).map { destination in
            let encoded = URLComponents(url: destination, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
            return stored(cut(encoded.count > 1 && encoded.hasSuffix("/") ? String(encoded.dropLast()) : encoded))
        }
        if behaviour.ranges == .dropsSuffix, request.method == .GET, request.headers.first(name: "Range")?.hasPrefix("bytes=-") == true {
            state.withLockedValue { $0.requests.append("GET \(raw) (dropped)") }
            throw Dropped()
        }
        let answer = state.withLockedValue { state in
            state.requests.append("\(request.method.rawValue) \(raw)")
            let found = behaviour.foldsCase || behaviour.findsOtherNormalization ? Self.existing(path, in: state, behaviour) : path
            if refused, ["PUT", "MKCOL"].contains(request.method.rawValue) { return Answer(status: 400) }
            return Self.answer(request.method.rawValue, found, target, request.headers, body, &state, behaviour)
        }
        var headers = answer.headers
        if let server = behaviour.server { headers.add(name: "Server", value: server) }
        return TransportResponse(status: answer.status, headers: headers, url: request.url, body: .bytes(ByteBuffer(bytes: answer.body)))
    }

    /// One answer: status, headers and body.
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders = [:]
        var body: [UInt8] = []

        init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        init(status: Int, headers: HTTPHeaders = [:], body: String) {
            self.init(status: status, headers: headers, body: Array(body.utf8))
        }
    }

    /// A `Destination` path as a server that decodes it and reads the result as a URL keeps it:
    /// cut at the first of ``Behaviour/destinationCut``.
    private func cut(_ encoded: String) -> String {
        guard !behaviour.destinationCut.isEmpty, let decoded = encoded.removingPercentEncoding else { return encoded }
        let kept = decoded.prefix { !behaviour.destinationCut.contains($0) }
        return kept.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? String($0)
        }.joined(separator: "/")
    }

    private func key(of url: URL) -> String { stored(Self.path(of: url, origin: origin)) }

    private static func path(of url: URL, origin: String) -> String {
        let raw = String(url.absoluteString.dropFirst(origin.count))
        return raw.count > 1 && raw.hasSuffix("/") ? String(raw.dropLast()) : raw
    }

    /// The key a (percent-encoded) path is stored under: its names changed as the server changes them.
    private func stored(_ path: String) -> String {
        guard behaviour.changesNames else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard var name = String(segment).removingPercentEncoding else { return String(segment) }
            if behaviour.decodesTwice { name = name.removingPercentEncoding ?? name }
            while behaviour.stripsTrailing, name.count > 1, name.hasSuffix(".") || name.hasSuffix(" ") { name.removeLast() }
            name = String(name.map { behaviour.mangledCharacters.contains($0) ? "_" : $0 })
            switch behaviour.normalization {
            case .preserved: break
            case .nfc: name = name.precomposedStringWithCanonicalMapping
            case .nfd: name = name.decomposedStringWithCanonicalMapping
            }
            return name.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? String(segment)
        }.joined(separator: "/")
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Whether the last name of a (percent-encoded) path is one the server refuses.
    private static func refuses(_ path: String, _ behaviour: Behaviour) -> Bool {
        guard let name = path.split(separator: "/").last.flatMap({ String($0).removingPercentEncoding }) else { return false }
        if behaviour.refusesLeadingSpace, name.hasPrefix(" ") { return true }
        if let limit = behaviour.maxNameBytes, name.utf8.count > limit { return true }
        return name.unicodeScalars.contains { behaviour.refusedCharacters.contains(Character($0)) }
    }

    /// The path of the file or folder that a case-folding (or normalisation-insensitive) server finds
    /// for `path`: each name matched ignoring case (or normalisation) against what is there, kept as
    /// requested where nothing matches.
    private static func existing(_ path: String, in state: State, _ behaviour: Behaviour) -> String {
        let known = state.folders.union(state.files.keys)
        func folded(_ text: String) -> String? {
            guard var text = text.removingPercentEncoding else { return nil }
            if behaviour.foldsCase { text = text.lowercased() }
            if behaviour.findsOtherNormalization { text = text.precomposedStringWithCanonicalMapping }
            return text
        }
        var resolved = ""
        for segment in path.split(separator: "/") {
            let exact = resolved + "/" + segment
            if known.contains(exact) {
                resolved = exact
                continue
            }
            let wanted = folded(exact)
            // Compared by their scalars: Swift's `==` takes NFC and NFD spellings as equal.
            let match = known.first {
                folded($0).map { Array($0.unicodeScalars) } == wanted.map { Array($0.unicodeScalars) } && parent($0) == (resolved.isEmpty ? "/" : resolved)
            }
            resolved = match ?? resolved + "/" + segment
        }
        return resolved.isEmpty ? "/" : resolved
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func answer(
        _ method: String, _ path: String, _ target: String?, _ headers: HTTPHeaders, _ body: [UInt8], _ state: inout State,
        _ behaviour: Behaviour
    ) -> Answer {
        let isFolder = state.folders.contains(path)
        let file = state.files[path]
        switch method {
        case "OPTIONS":
            return .init(status: 200, headers: ["DAV": "1, 2"])
        case "PROPFIND":
            guard isFolder || file != nil else { return .init(status: 404) }
            var entries = [entry(path, folder: isFolder, file: file)]
            let depth = headers.first(name: "Depth")
            if depth == "infinity", case .refused = behaviour.depthInfinity { return .init(status: 403) }
            if depth == "1" || depth == "infinity", isFolder {
                let prefix = path == "/" ? "/" : path + "/"
                let whole: Bool
                var omitted: String? = nil
                switch behaviour.depthInfinity {
                case .whole: whole = depth == "infinity"
                case .omitting(let folder):
                    whole = depth == "infinity"
                    omitted = depth == "infinity" ? folder + "/" : nil
                case .refused, .oneLevel: whole = false
                }
                let children = (state.folders.filter { $0 != path } + state.files.keys).filter {
                    $0.hasPrefix(prefix) && (whole || !$0.dropFirst(prefix.count).contains("/")) && !(omitted.map($0.hasPrefix) ?? false)
                }
                for child in children.sorted() {
                    let name = child.dropFirst(prefix.count)
                    if name.hasPrefix("."), !behaviour.listsDotFiles { continue }
                    entries.append(entry(child, folder: state.folders.contains(child), file: state.files[child]))
                }
            }
            let xml = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"# + entries.joined() + "</d:multistatus>"
            return .init(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: xml)
        case "MKCOL":
            if isFolder { return .init(status: behaviour.mkcolRefusesExisting ? 405 : 201) }
            if file != nil { return .init(status: 405) }
            guard state.folders.contains(parent(path)) else { return .init(status: 409) }
            state.folders.insert(path)
            return .init(status: 201)
        case "PUT":
            guard state.folders.contains(parent(path)) else { return .init(status: 409) }
            if isFolder { return .init(status: 405) }
            if behaviour.honoursPreconditions {
                if headers.first(name: "If-None-Match") == "*", file != nil { return .init(status: 412) }
                if let wanted = headers.first(name: "If-Match"), wanted != file?.etag { return .init(status: 412) }
                if let condition = headers.first(name: "If"), !condition.contains(file?.etag ?? "\u{0}") { return .init(status: 412) }
            }
            state.version += 1
            let etag = "\"v\(state.version)\""
            state.files[path] = (body, etag)
            return .init(status: file == nil ? 201 : 204, headers: ["ETag": etag])
        case "GET":
            guard let file else { return .init(status: 404) }
            if let range = headers.first(name: "Range"), behaviour.ranges != .ignored, let bytes = Self.range(range, size: file.bytes.count) {
                var sent = Array(file.bytes[bytes])
                if behaviour.ranges == .offByOne {
                    let lower = bytes.lowerBound + 1
                    let upper = min(bytes.upperBound + 1, file.bytes.count - 1)
                    sent = lower <= upper ? Array(file.bytes[lower...upper]) : []
                }
                var answerHeaders: HTTPHeaders = ["ETag": file.etag]
                if behaviour.ranges != .noContentRange {
                    answerHeaders.add(name: "Content-Range", value: "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(file.bytes.count)")
                }
                return .init(status: 206, headers: answerHeaders, body: sent)
            }
            return .init(status: 200, headers: ["ETag": file.etag, "Content-Length": "\(file.bytes.count)"], body: file.bytes)
        case "COPY":
            if behaviour.refusesCopy { return .init(status: 501) }
            guard isFolder || file != nil, let target else { return .init(status: 404) }
            guard state.folders.contains(parent(target)) else { return .init(status: 409) }
            let existed = state.files[target] != nil || state.folders.contains(target)
            if existed, headers.first(name: "Overwrite") == "F" { return .init(status: 412) }
            if let file {
                if state.folders.contains(target) { return .init(status: 403) }
                state.files[target] = file
                return .init(status: existed ? 204 : 201)
            }
            let targetPrefix = target + "/"
            if existed, !behaviour.copyMergesFolders {
                state.files = state.files.filter { $0.key != target && !$0.key.hasPrefix(targetPrefix) }
                state.folders = state.folders.filter { $0 != target && !$0.hasPrefix(targetPrefix) }
            }
            let prefix = path + "/"
            for (key, value) in state.files where key.hasPrefix(prefix) { state.files[targetPrefix + key.dropFirst(prefix.count)] = value }
            for key in state.folders where key == path || key.hasPrefix(prefix) {
                state.folders.insert(key == path ? target : targetPrefix + key.dropFirst(prefix.count))
            }
            return .init(status: existed ? 204 : 201)
        case "MOVE":
            guard isFolder || file != nil, let target else {
                return .init(status: 404)
            }
            guard state.folders.contains(parent(target)) else { return .init(status: 409) }
            if isFolder {
                let existed = state.folders.contains(target) || state.files[target] != nil
                if existed, headers.first(name: "Overwrite") == "F" { return .init(status: 412) }
                let targetPrefix = target + "/"
                if existed, !behaviour.mergesFolders {
                    state.files = state.files.filter { $0.key != target && !$0.key.hasPrefix(targetPrefix) }
                    state.folders = state.folders.filter { $0 != target && !$0.hasPrefix(targetPrefix) }
                }
                let prefix = path + "/"
                for (key, value) in state.files where key.hasPrefix(prefix) {
                    state.files[key] = nil
                    state.files[targetPrefix + key.dropFirst(prefix.count)] = value
                }
                for key in state.folders where key == path || key.hasPrefix(prefix) {
                    state.folders.remove(key)
                    state.folders.insert(key == path ? target : targetPrefix + key.dropFirst(prefix.count))
                }
                return .init(status: existed ? 204 : 201)
            }
            guard let file else { return .init(status: 404) }
            let existed = state.files[target] != nil || state.folders.contains(target)
            if existed, headers.first(name: "Overwrite") == "F" { return .init(status: 412) }
            if state.folders.contains(target) { return .init(status: 403) }
            state.files[path] = nil
            state.files[target] = file
            return .init(status: existed ? 204 : 201)
        case "DELETE":
            guard isFolder || file != nil else { return .init(status: 404) }
            let prefix = path + "/"
            state.files = state.files.filter { $0.key != path && !$0.key.hasPrefix(prefix) }
            state.folders = state.folders.filter { $0 != path && !$0.hasPrefix(prefix) }
            return .init(status: 204)
        default:
            return .init(status: 405)
        }
    }

    /// The bytes a `Range` header asks of a file of `size` bytes (`bytes=a-b`, `bytes=a-`, `bytes=-n`).
    private static func range(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty, let count = Int(parts[1]), count > 0 { return max(0, size - count)...(size - 1) }
        guard let start = Int(parts[0]), start < size else { return nil }
        let end = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? size - 1, size - 1)
        return start <= end ? start...end : nil
    }

    private static func entry(_ path: String, folder: Bool, file: (bytes: [UInt8], etag: String)?) -> String {
        let href = folder && path != "/" ? path + "/" : path
        let props = folder
            ? "<d:resourcetype><d:collection/></d:resourcetype>"
            : "<d:resourcetype/><d:getcontentlength>\(file?.bytes.count ?? 0)</d:getcontentlength><d:getetag>\(file?.etag ?? "")</d:getetag>"
        return "<d:response><d:href>\(href)</d:href><d:propstat><d:prop>\(props)</d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }
}
