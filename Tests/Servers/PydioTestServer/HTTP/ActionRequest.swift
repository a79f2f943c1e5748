import Foundation
import Hummingbird
import NIOCore

/// A received request with its body read and its parameters merged
/// (query, then body fields; the body wins, as PHP's `array_merge`).
struct ActionRequest: Sendable {
    struct UploadedFile: Sendable {
        var field: String
        var filename: String
        var data: Data
    }

    let method: String
    /// Percent-encoded path as received.
    let rawPath: String
    let rawQuery: String?
    let headers: [(name: String, value: String)]
    let query: [(name: String, value: String)]
    let form: [(name: String, value: String)]
    let files: [UploadedFile]
    /// The raw body when it was neither urlencoded nor multipart (PUT uploads).
    let rawBody: Data
    /// The client address (`127.0.0.1`), for the brute-force counter.
    let address: String

    init(_ request: Request, body: Data, address: String) {
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
        query = FormCodec.parse(rawQuery ?? "")
        self.address = address
        let contentType = request.headers[.contentType] ?? ""
        // PHP parses bodies into $_POST for POST only; a PUT body stays raw.
        if method != "PUT", let boundary = Multipart.boundary(of: contentType) {
            var fields: [(name: String, value: String)] = []
            var files: [UploadedFile] = []
            for part in Multipart(body: body, boundary: boundary).parts {
                if let filename = part.filename {
                    files.append(UploadedFile(field: part.name, filename: filename, data: part.data))
                    fields.append((name: part.name, value: filename))
                } else {
                    fields.append((name: part.name, value: String(decoding: part.data, as: UTF8.self)))
                }
            }
            form = fields
            self.files = files
            rawBody = Data()
        } else if method != "PUT", contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            form = FormCodec.parse(String(decoding: body, as: UTF8.self))
            files = []
            rawBody = Data()
        } else {
            form = []
            files = []
            rawBody = body
        }
    }

    /// First value of a header, case-insensitive.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// A parameter: the body field when present, else the query one (last wins within each).
    func param(_ name: String) -> String? {
        if let value = form.last(where: { $0.name == name })?.value { return value }
        return query.last { $0.name == name }?.value
    }

    /// Every value of an array parameter (`nodes[]`), body values replacing query ones.
    func params(_ name: String) -> [String] {
        let fromForm = form.filter { $0.name == name }.map(\.value)
        return fromForm.isEmpty ? query.filter { $0.name == name }.map(\.value) : fromForm
    }

    /// `get_action`, else `action`.
    var action: String? {
        let value = param("get_action") ?? param("action")
        return value?.isEmpty == false ? value : nil
    }

    /// The value of cookie `name`, if sent.
    func cookie(_ name: String) -> String? {
        for header in headers where header.name.caseInsensitiveCompare("Cookie") == .orderedSame {
            for item in header.value.split(separator: ";") {
                let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == name { return pair[1] }
            }
        }
        return nil
    }

    /// `true` when the User-Agent is one of Pydio's native apps (`UserAgent::userAgentIsNativePydioApp`).
    var isNativeApp: Bool {
        let agent = header("User-Agent") ?? ""
        return ["ajaxplorer-ios-client", "Apache-HttpClient", "python-requests", "Pydio-Native"].contains { agent.contains($0) }
    }

    var record: PydioRecordedRequest {
        PydioRecordedRequest(method: method, path: rawPath, query: rawQuery, form: form, headers: headers)
    }
}
