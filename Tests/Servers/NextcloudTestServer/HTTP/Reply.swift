import Foundation
import Hummingbird
import NIOCore

/// Builders for the responses the server sends.
enum Reply {
    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let fieldName = HTTPFields.Element.Name(name) { fields.append(HTTPFields.Element(name: fieldName, value: value)) }
        }
        return fields
    }

    static func bytes(_ data: Data, status: Int = 200, headers: [(String, String)] = []) -> Response {
        var all = headers
        if !all.contains(where: { $0.0.caseInsensitiveCompare("Content-Length") == .orderedSame }) {
            all.append(("Content-Length", String(data.count)))
        }
        return Response(
            status: HTTPResponse.Status(code: status), headers: fields(all),
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An empty `text/html; charset=UTF-8` answer (MKCOL 201, PUT 201/204, DELETE 204 as recorded).
    static func empty(_ status: Int, headers: [(String, String)] = []) -> Response {
        bytes(Data(), status: status, headers: [("Content-Type", "text/html; charset=UTF-8")] + headers)
    }

    /// A multistatus or other DAV XML document.
    static func xml(_ text: String, status: Int = 207, headers: [(String, String)] = []) -> Response {
        bytes(Data(text.utf8), status: status, headers: [("Content-Type", "application/xml; charset=utf-8")] + headers)
    }

    static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Response {
        bytes(Data(text.utf8), status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers)
    }

    /// Closes the connection after the head, without a body: a dropped upload.
    static func dropped() -> Response {
        struct Dropped: Error {}
        let body = ResponseBody(contentLength: 1) { _ in throw Dropped() }
        return Response(status: .created, headers: fields([]), body: body)
    }
}
