import Foundation
import Hummingbird
import NIOCore

/// A received request, with the helpers route handlers need.
struct ServerRequest: Sendable {
    let method: String
    /// Percent-encoded path as received, context path included.
    let rawPath: String
    let rawQuery: String?
    let headers: [(name: String, value: String)]
    /// Query parameters decoded with form rules (`+` is a space).
    let query: [(name: String, value: String)]
    let body: RequestBody
    /// The authenticated user, set by the router.
    var user = ""

    init(_ request: Request) {
        method = request.method.rawValue.uppercased()
        let target = request.head.path ?? "/"
        if let mark = target.firstIndex(of: "?") {
            rawPath = String(target[..<mark])
            rawQuery = String(target[target.index(after: mark)...])
        } else {
            rawPath = target
            rawQuery = nil
        }
        headers = request.headers.map { (name: $0.name.rawName, value: $0.value) }
        query = (rawQuery ?? "").split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (name: FormDecoding.decode(String(parts[0])), value: parts.count > 1 ? FormDecoding.decode(String(parts[1])) : "")
        }
        body = request.body
    }

    /// First value of a header, case-insensitive.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// First value of a query parameter (exact name).
    func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Collects the whole body.
    func collectBody(limit: Int = 512 * 1024 * 1024) async throws -> Data {
        var data = Data()
        for try await buffer in body {
            data.append(contentsOf: buffer.readableBytesView)
            if data.count > limit { throw NuxeoError(status: 413, message: "Request entity too large") }
        }
        return data
    }

    /// Collects and parses a JSON body; an empty body gives an empty object.
    func jsonBody() async throws -> NXJSON {
        let data = try await collectBody(limit: 64 * 1024 * 1024)
        if data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { return .object([]) }
        do {
            return try NXJSONParser.parse(data)
        } catch {
            throw NuxeoError.badRequest("Unable to parse the request body: \(error)")
        }
    }
}
