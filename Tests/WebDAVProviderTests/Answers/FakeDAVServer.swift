import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import WebDAVProvider
import HTTPProviderKit

/// A small WebDAV server in memory whose shortcomings can be chosen: whether it honours PUT
/// preconditions, refuses MKCOL over a folder, lists dot-files, keeps a cut PUT's partial body,
/// refuses or changes characters in names, normalises names, and what `Server` it names.
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

        var changesNames: Bool { !mangledCharacters.isEmpty || normalization != .preserved }
    }

    private struct State {
        var files: [String: (bytes: String, etag: String)] = [:]
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
    func content(_ path: String) -> String? { state.withLockedValue { $0.files[path]?.bytes } }

    /// The paths of every file.
    var filePaths: [String] { state.withLockedValue { $0.files.keys.sorted() } }

    func configuration() -> ProviderConfiguration {
        ProviderConfiguration(
            url: URL(string: origin + "/")!, credentials: .basic(username: "u", password: "p"), transport: self,
            retry: RetryPolicy(maxAttempts: 1))
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var body = ""
        switch request.body {
        case .bytes(let buffer)?: body = String(buffer: buffer)
        case .source(let source)?:
            do {
                for try await piece in try source.makeStream() { body += String(buffer: piece) }
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
        let answer = state.withLockedValue { state in
            state.requests.append("\(request.method.rawValue) \(raw)")
            let found = behaviour.foldsCase ? Self.existing(path, in: state) : path
            if refused, ["PUT", "MKCOL"].contains(request.method.rawValue) { return ScriptedDAVServer.Answer(status: 400) }
            return Self.answer(request.method.rawValue, found, request.headers, body, &state, behaviour, stored)
        }
        var headers = answer.headers
        if let server = behaviour.server { headers.add(name: "Server", value: server) }
        return TransportResponse(status: answer.status, headers: headers, url: request.url, body: .bytes(ByteBuffer(string: answer.body)))
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
        return name.unicodeScalars.contains { behaviour.refusedCharacters.contains(Character($0)) }
    }

    /// The path of the file or folder that a case-folding server finds for `path`: each name
    /// matched ignoring case against what is there, kept as requested where nothing matches.
    private static func existing(_ path: String, in state: State) -> String {
        let known = state.folders.union(state.files.keys)
        var resolved = ""
        for segment in path.split(separator: "/") {
            let wanted = (resolved + "/" + segment).removingPercentEncoding?.lowercased()
            let match = known.first { $0.removingPercentEncoding?.lowercased() == wanted && parent($0) == (resolved.isEmpty ? "/" : resolved) }
            resolved = match ?? resolved + "/" + segment
        }
        return resolved.isEmpty ? "/" : resolved
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func answer(
        _ method: String, _ path: String, _ headers: HTTPHeaders, _ body: String, _ state: inout State, _ behaviour: Behaviour,
        _ stored: (String) -> String
    ) -> ScriptedDAVServer.Answer {
        let isFolder = state.folders.contains(path)
        let file = state.files[path]
        switch method {
        case "OPTIONS":
            return .init(status: 200, headers: ["DAV": "1, 2"])
        case "PROPFIND":
            guard isFolder || file != nil else { return .init(status: 404) }
            var entries = [entry(path, folder: isFolder, file: file)]
            if headers.first(name: "Depth") == "1", isFolder {
                let prefix = path == "/" ? "/" : path + "/"
                let children = (state.folders.filter { $0 != path } + state.files.keys).filter {
                    $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/")
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
            return .init(status: 200, headers: ["ETag": file.etag, "Content-Length": "\(file.bytes.utf8.count)"], body: file.bytes)
        case "MOVE":
            guard isFolder || file != nil, let destination = headers.first(name: "Destination").flatMap(URL.init(string:)) else {
                return .init(status: 404)
            }
            let encoded = URLComponents(url: destination, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
            let target = stored(encoded.count > 1 && encoded.hasSuffix("/") ? String(encoded.dropLast()) : encoded)
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

    private static func entry(_ path: String, folder: Bool, file: (bytes: String, etag: String)?) -> String {
        let href = folder && path != "/" ? path + "/" : path
        let props = folder
            ? "<d:resourcetype><d:collection/></d:resourcetype>"
            : "<d:resourcetype/><d:getcontentlength>\(file?.bytes.utf8.count ?? 0)</d:getcontentlength><d:getetag>\(file?.etag ?? "")</d:getetag>"
        return "<d:response><d:href>\(href)</d:href><d:propstat><d:prop>\(props)</d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }
}
