import Foundation
import Hummingbird
import NIOCore

/// Builders for the responses the server sends.
enum Reply {
    static func status(_ code: Int) -> HTTPResponse.Status { HTTPResponse.Status(code: code) }

    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let fieldName = HTTPFields.Element.Name(name) { fields.append(HTTPFields.Element(name: fieldName, value: value)) }
        }
        return fields
    }

    /// A JSON entity (`application/json`).
    static func json(_ value: NXJSON, status: Int = 200, headers: [(String, String)] = []) -> Response {
        bytes(value.data, status: status, contentType: "application/json", headers: headers)
    }

    /// `{"entity-type":"exception","status":…,"message":…}`
    static func exception(_ status: Int, _ message: String, headers: [(String, String)] = []) -> Response {
        json(.object([("entity-type", .string("exception")), ("status", .int(Int64(status))), ("message", .string(message))]),
             status: status, headers: headers)
    }

    static func error(_ error: NuxeoError) -> Response {
        exception(error.status, error.message)
    }

    /// A status with no body.
    static func empty(_ status: Int, headers: [(String, String)] = []) -> Response {
        Response(status: Self.status(status), headers: fields(headers), body: ResponseBody())
    }

    static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=UTF-8") -> Response {
        bytes(Data(text.utf8), status: status, contentType: contentType)
    }

    static func bytes(_ data: Data, status: Int, contentType: String, headers: [(String, String)] = []) -> Response {
        var all = [("Content-Type", contentType)]
        all.append(contentsOf: headers)
        return Response(status: Self.status(status), headers: fields(all), body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Tomcat's HTML 401 page; `WWW-Authenticate` unless `X-No-Basic-Header` is non-blank.
    static func unauthorized(_ request: ServerRequest) -> Response {
        let html = """
        <!doctype html><html lang="en"><head><title>HTTP Status 401 – Unauthorized</title>\
        <style type="text/css">body {font-family:Tahoma,Arial,sans-serif;}</style></head><body>\
        <h1>HTTP Status 401 – Unauthorized</h1><hr class="line" /><p><b>Type</b> Status Report</p>\
        <p><b>Description</b> The request has not been applied to the target resource because it lacks \
        valid authentication credentials for that resource.</p><hr class="line" /><h3>Apache Tomcat/9.0.43</h3></body></html>
        """
        var headers: [(String, String)] = []
        let suppress = request.header("X-No-Basic-Header").map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? false
        if !suppress { headers.append(("WWW-Authenticate", "Basic realm=\"Nuxeo Automation\"")) }
        return bytes(Data(html.utf8), status: 401, contentType: "text/html;charset=utf-8", headers: headers)
    }
}
