import Foundation
import Hummingbird
import NIOCore

/// Builders for the responses the server sends, with pydio-core's headers.
enum Reply {
    static let xmlHeader = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"

    /// PHP's session headers, sent on every non-download answer.
    static let noCache: [(String, String)] = [
        ("Expires", "Thu, 19 Nov 1981 08:52:00 GMT"),
        ("Cache-Control", "no-store, no-cache, must-revalidate"),
        ("Pragma", "no-cache"),
    ]

    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let fieldName = HTTPFields.Element.Name(name) { fields.append(HTTPFields.Element(name: fieldName, value: value)) }
        }
        return fields
    }

    static func bytes(_ data: Data, status: Int = 200, headers: [(String, String)]) -> Response {
        Response(status: HTTPResponse.Status(code: status), headers: fields(headers), body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `<?xml …?><tree >inner</tree>` as `text/xml; charset=UTF-8`.
    static func tree(_ inner: String) -> Body {
        xml("<tree >" + inner + "</tree>")
    }

    /// An XML document (the declaration is prepended).
    static func xml(_ document: String) -> Body {
        Body(data: Data((xmlHeader + document).utf8), contentType: "text/xml; charset=UTF-8", headerName: "Content-Type")
    }

    /// `<tree ><message type="ERROR">text</message></tree>`
    static func error(_ text: String) -> Body {
        tree("<message type=\"ERROR\">" + XMLText.escape(text) + "</message>")
    }

    static let notAllowed = error("You are not allowed to access this resource.")
    static let requireAuth = tree("<require_auth/>")

    /// `text/plain; charset=UTF-8`
    static func plain(_ text: String) -> Body {
        Body(data: Data(text.utf8), contentType: "text/plain; charset=UTF-8", headerName: "Content-Type")
    }

    /// `Content-type: text/plain;charset=UTF-8` (the seed and share URL form).
    static func plainCompact(_ text: String) -> Body {
        Body(data: Data(text.utf8), contentType: "text/plain;charset=UTF-8", headerName: "Content-type")
    }

    /// `application/json`
    static func json(_ text: String) -> Body {
        Body(data: Data(text.utf8), contentType: "application/json", headerName: "Content-Type")
    }

    /// The empty `text/html` answer (switch_repository, unsupported actions, upload without xhr flag).
    static let emptyHTML = Body(data: Data(), contentType: "text/html; charset=UTF-8", headerName: "Content-type")

    /// A body with its content type, before the session headers are added.
    struct Body: Sendable {
        var data: Data
        var contentType: String
        var headerName: String
        var status = 200
        var extraHeaders: [(String, String)] = []
        /// Sent as PHP sends `ls` (recording 58): no `Content-Length`, `Connection: close`. PHP
        /// ends such a body by closing the connection; Hummingbird frames a length-less HTTP/1.1
        /// body in chunks instead, so the answer is chunked (still without a length).
        var withoutLength = false
    }

    /// A streamed answer with no `Content-Length` (chunked by the HTTP/1.1 encoder).
    static func lengthless(_ data: Data, status: Int, headers: [(String, String)]) -> Response {
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(bytes: data))
            try await writer.finish(nil)
        }
        return Response(status: HTTPResponse.Status(code: status), headers: fields(headers + [("Connection", "close")]), body: body)
    }
}
