import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// The little HTTP protocol between ``InMemoryProvider`` and ``InMemoryServer``.
///
/// Paths travel percent-encoded (every byte outside `A–Z a–z 0–9 - . _ ~`), so any
/// name survives byte for byte; results travel as JSON; errors as a status with the
/// ``ProviderError/Code`` name in `X-Strata-Error`.
enum InMemoryWire {
    static let host = "memory.invalid"
    /// The host of public links, which anyone holding one opens without credentials.
    static let linkHost = "links.memory.invalid"
    static let operationHeader = "X-Strata-Op"
    static let errorHeader = "X-Strata-Error"
    static let itemHeader = "X-Strata-Item"
    static let limitHeader = "X-Strata-Limit"
    static let cursorHeader = "X-Strata-Cursor"
    static let conflictHeader = "X-Strata-Conflict"
    static let modifiedHeader = "X-Strata-Modified"
    static let sinceHeader = "X-Strata-Since"
    static let shareHeader = "X-Strata-Share"

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `/a/b` with each segment percent-encoded.
    static func encode(_ path: ItemPath) -> String {
        "/" + path.segments.map { $0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }.joined(separator: "/")
    }

    /// The URL of `path` on the in-memory server.
    static func url(_ path: ItemPath) throws -> URL {
        guard let url = URL(string: "http://\(host)\(encode(path))") else {
            throw ProviderError(.invalidArgument, "cannot make a URL for \(path)")
        }
        return url
    }

    /// The public link of share `id`: its page, or with `download` its file's bytes.
    static func linkURL(_ id: String, download: Bool = false) -> URL? {
        URL(string: "https://\(linkHost)/s/\(id)" + (download ? "/download" : ""))
    }

    /// The password of a `Basic` `Authorization` header (whatever its user), or `nil`.
    static func basicPassword(_ header: String?) -> String? {
        guard let header, header.lowercased().hasPrefix("basic "), let data = Data(base64Encoded: String(header.dropFirst(6))),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return String(text[text.index(after: colon)...])
    }

    /// The path encoded by ``encode(_:)``.
    static func decode(_ encoded: Substring) throws -> ItemPath {
        let parts = encoded.split(separator: "/", omittingEmptySubsequences: true)
        let segments = try parts.map { part -> String in
            guard let name = String(part).removingPercentEncoding else {
                throw ProviderError(.invalidArgument, "bad path segment \(part)")
            }
            return name
        }
        return try ItemPath(segments: segments)
    }

    /// The path of a request's URL.
    static func path(of url: URL) throws -> ItemPath {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ProviderError(.invalidArgument, "bad URL \(url)")
        }
        return try decode(Substring(components.percentEncodedPath))
    }

    // MARK: Errors

    private static let codes: [ProviderError.Code] = [
        .notFound, .alreadyExists, .unauthorized, .forbidden, .conflict, .preconditionFailed, .quotaExceeded,
        .rateLimited, .unsupported, .invalidResponse, .invalidArgument, .network, .server, .cancelled, .integrity,
    ]

    static func status(for code: ProviderError.Code) -> Int {
        switch code {
        case .notFound: return 404
        case .alreadyExists: return 405
        case .preconditionFailed: return 412
        case .conflict: return 409
        case .forbidden: return 403
        case .invalidArgument: return 400
        case .rateLimited: return 429
        default: return 500
        }
    }

    /// The error a failed response stands for.
    static func error(for response: TransportResponse, body: ByteBuffer, request: String) -> ProviderError {
        let message = String(buffer: body)
        if let name = response.headers.first(name: errorHeader), let code = codes.first(where: { $0.description == name }) {
            return ProviderError(code, message, httpStatus: response.status, request: request, retryAfter: response.retryAfter)
        }
        return ProviderError.http(
            status: response.status, request: request, message: message.isEmpty ? nil : message, retryAfter: response.retryAfter)
    }

    /// A response for a thrown error.
    static func response(for error: ProviderError, url: URL) -> TransportResponse {
        var headers = HTTPHeaders()
        headers.add(name: errorHeader, value: error.code.description)
        let body = ByteBuffer(string: error.message ?? "")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        return TransportResponse(status: status(for: error.code), headers: headers, url: url, body: .bytes(body))
    }

    // MARK: JSON

    static func encodeJSON<Value: Encodable>(_ value: Value) throws -> ByteBuffer {
        do {
            return ByteBuffer(bytes: try JSONEncoder().encode(value))
        } catch {
            throw ProviderError(.invalidResponse, "cannot encode \(Value.self)", underlying: String(describing: error))
        }
    }

    static func decodeJSON<Value: Decodable>(_ type: Value.Type, from buffer: ByteBuffer, request: String) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch {
            throw ProviderError(.invalidResponse, "cannot decode \(Value.self)", request: request, underlying: String(describing: error))
        }
    }

    /// An item in a header value (base64 JSON).
    static func headerValue(for item: Item) throws -> String {
        Data(try encodeJSON(item).readableBytesView).base64EncodedString()
    }

    /// The item in a header written by ``headerValue(for:)``.
    static func item(fromHeader value: String?) -> Item? {
        guard let value, let data = Data(base64Encoded: value) else { return nil }
        return try? JSONDecoder().decode(Item.self, from: data)
    }
}

/// A share request as it travels to the server.
struct WireShareRequest: Codable, Sendable {
    var kind: ShareKind
    var permissions: SharePermissions
    var password: String?
    var expires: Date?

    init(_ request: ShareRequest) {
        kind = request.kind
        permissions = request.permissions
        password = request.password
        expires = request.expires
    }
}
