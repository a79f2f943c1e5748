import Foundation
import Hummingbird

/// A Sabre `d:error` answer, as ownCloud and Nextcloud send for every WebDAV failure.
struct SabreError: Error, Sendable {
    var status: Int
    var exception: String
    var message: String
    /// `<s:header>` (412 answers name the header that failed).
    var header: String?
    var extraHeaders: [(String, String)] = []

    init(_ status: Int, _ exception: String, _ message: String, header: String? = nil) {
        self.status = status
        self.exception = exception
        self.message = message
        self.header = header
    }

    static func notFound(_ path: String) -> SabreError {
        SabreError(404, "Sabre\\DAV\\Exception\\NotFound", "File with name \(path) could not be located")
    }

    static func badRequest(_ message: String) -> SabreError {
        SabreError(400, "Sabre\\DAV\\Exception\\BadRequest", message)
    }

    static func forbidden(_ message: String = "") -> SabreError {
        SabreError(403, "Sabre\\DAV\\Exception\\Forbidden", message)
    }

    static func conflict(_ message: String) -> SabreError {
        SabreError(409, "Sabre\\DAV\\Exception\\Conflict", message)
    }

    static func methodNotAllowed(_ message: String) -> SabreError {
        SabreError(405, "Sabre\\DAV\\Exception\\MethodNotAllowed", message)
    }

    static func preconditionFailed(_ message: String, header: String) -> SabreError {
        SabreError(412, "Sabre\\DAV\\Exception\\PreconditionFailed", message, header: header)
    }

    static func locked(_ path: String) -> SabreError {
        SabreError(423, "OCA\\DAV\\Connector\\Sabre\\Exception\\FileLocked", "\"\(path)\" is locked")
    }

    static func insufficientStorage(_ message: String) -> SabreError {
        SabreError(507, "Sabre\\DAV\\Exception\\InsufficientStorage", message)
    }

    static let maintenance = SabreError(503, "Sabre\\DAV\\Exception\\ServiceUnavailable", "System in maintenance mode.")

    /// The exception class for a status injected by a fault.
    static func injected(_ status: Int) -> SabreError {
        let exception: String
        switch status {
        case 400: exception = "Sabre\\DAV\\Exception\\BadRequest"
        case 401: exception = "Sabre\\DAV\\Exception\\NotAuthenticated"
        case 403: exception = "Sabre\\DAV\\Exception\\Forbidden"
        case 404: exception = "Sabre\\DAV\\Exception\\NotFound"
        case 409: exception = "Sabre\\DAV\\Exception\\Conflict"
        case 423: exception = "Sabre\\DAV\\Exception\\Locked"
        case 507: exception = "Sabre\\DAV\\Exception\\InsufficientStorage"
        case 503: exception = "Sabre\\DAV\\Exception\\ServiceUnavailable"
        default: exception = "Sabre\\DAV\\Exception"
        }
        let message = status == 503 ? "Storage is temporarily not available" : "Injected failure"
        return SabreError(status, exception, message)
    }

    /// The Sabre error document.
    var document: String {
        var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        text += "<d:error xmlns:d=\"DAV:\" xmlns:s=\"http://sabredav.org/ns\">\n"
        text += "  <s:exception>\(XMLText.escape(exception))</s:exception>\n"
        text += message.isEmpty ? "  <s:message/>\n" : "  <s:message>\(XMLText.escape(message))</s:message>\n"
        if let header { text += "  <s:header>\(XMLText.escape(header))</s:header>\n" }
        text += "</d:error>\n"
        return text
    }

    var response: Response {
        Reply.bytes(Data(document.utf8), status: status, headers: [("Content-Type", "application/xml; charset=utf-8")] + extraHeaders)
    }
}
