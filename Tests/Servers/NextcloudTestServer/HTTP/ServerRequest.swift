import Foundation
import Hummingbird

/// A received request with its body read.
struct ServerRequest: Sendable {
    let method: String
    /// Percent-encoded path as received.
    let rawPath: String
    let rawQuery: String?
    let headers: [(name: String, value: String)]
    let body: Data

    init(_ request: Request, body: Data) {
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
        self.body = body
    }

    /// First value of a header, case-insensitive.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The query parameters, decoded (`+` is a space).
    var query: [(name: String, value: String)] { FormCodec.parse(rawQuery ?? "") }

    /// The last value of a query parameter.
    func queryValue(_ name: String) -> String? { query.last { $0.name == name }?.value }

    /// The path decoded, then split into segments (empty segments dropped): as in Sabre, an encoded
    /// `%2F` separates segments like `/`. Each segment is in NFC, as ownCloud and Nextcloud normalise
    /// every path (`Filesystem::normalizePath`): a name sent in NFD is stored, found and listed in NFC.
    var segments: [String] { Self.segments(FormCodec.percentDecode(rawPath)) }

    /// A decoded path split into NFC segments.
    static func segments(_ decoded: String) -> [String] {
        decoded.split(separator: "/", omittingEmptySubsequences: true).map { String($0).precomposedStringWithCanonicalMapping }
    }

    /// The record kept for tests, with the credentials redacted.
    var record: RecordedRequest {
        let redacted = headers.map { header -> (name: String, value: String) in
            guard header.name.caseInsensitiveCompare("Authorization") == .orderedSame else { return header }
            let scheme = header.value.split(separator: " ").first.map(String.init) ?? ""
            return (header.name, scheme + " <redacted>")
        }
        return RecordedRequest(method: method, path: rawPath, query: rawQuery, headers: redacted)
    }
}
