import Foundation
import ProviderAPI
import HTTPProviderKit

/// Turns a Nuxeo error answer — an HTTP status plus an `exception` entity, an HTML error page,
/// or nothing — into a `ProviderError`.
///
/// | answer | code |
/// |---|---|
/// | 401 (any body, usually the servlet container's HTML page) | `unauthorized` |
/// | 403 | `forbidden` |
/// | 404, 410, or a `DocumentNotFoundException` under any status | `notFound` |
/// | 409, a `ConcurrentUpdateException`, or a 400 that blames the change token | `conflict` |
/// | 412 (`If-None-Match` on a blob write) | `preconditionFailed` |
/// | 400 (bad NXQL, missing type or name, validation) | `invalidArgument` |
/// | 413, 507 | `quotaExceeded` |
/// | 429 | `rateLimited`, with `Retry-After` |
/// | other 5xx | `server`, with `Retry-After` for 503 |
///
/// The message is the exception's `message` with anything secret-looking redacted; the
/// stack trace and an HTML body are never copied into the error.
package enum NuxeoErrorMapper {
    /// The error for an answer with `status` and `body`.
    ///
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - body: the response body, if any; JSON is read when it is an `exception` entity.
    ///   - request: the failing request as `METHOD path`; user info and secret query values are redacted.
    ///   - retryAfter: the parsed `Retry-After` header, if any.
    package static func error(
        status: Int, body: Data?, request: String? = nil, retryAfter: Duration? = nil
    ) -> ProviderError {
        let exception = body.flatMap(exceptionEntity(in:))
        return error(status: status, exception: exception, request: request, retryAfter: retryAfter)
    }

    /// The error for an answer with `status` and an already decoded `exception`.
    package static func error(
        status: Int, exception: NuxeoException?, request: String? = nil, retryAfter: Duration? = nil
    ) -> ProviderError {
        let code = code(status: status, exception: exception)
        var message = exception?.message.map(sanitize)
        if message?.isEmpty ?? true {
            message = defaultMessage(for: code, status: status)
        }
        if status == 409, let text = message, exception?.message != nil, looksLikeIdentifier(text) {
            message = "the document \(text) was changed by someone else (stale change token)"
        }
        return ProviderError(
            code, message, httpStatus: status, request: request.map(Redactor.redact),
            retryAfter: (code == .rateLimited || status == 503) ? retryAfter : nil,
            underlying: exception?.className.map(sanitize))
    }

    /// The code for `status`, refined by the exception class and message.
    package static func code(status: Int, exception: NuxeoException?) -> ProviderError.Code {
        let className = exception?.className ?? ""
        let message = exception?.message ?? ""
        if status == 401 { return .unauthorized }
        if className.hasSuffix("DocumentNotFoundException") || className.hasSuffix("WebResourceNotFoundException") {
            return .notFound
        }
        if className.hasSuffix("ConcurrentUpdateException") { return .conflict }
        if className.hasSuffix("DocumentSecurityException") { return .forbidden }
        switch status {
        case 400:
            let lowered = message.lowercased()
            if lowered.contains("changetoken") || lowered.contains("change token") { return .conflict }
            return .invalidArgument
        case 403: return .forbidden
        case 404, 410: return .notFound
        case 409: return .conflict
        case 412: return .preconditionFailed
        case 413, 507: return .quotaExceeded
        case 429: return .rateLimited
        default: return ProviderError.code(forHTTPStatus: status)
        }
    }

    /// The `exception` entity in `body`, or `nil` when the body is empty, HTML or another entity.
    package static func exceptionEntity(in body: Data) -> NuxeoException? {
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }),
              first == UInt8(ascii: "{"),
              let json = try? NuxeoJSON.parse(body),
              json["entity-type"]?.stringValue == NuxeoException.entityType
        else { return nil }
        return try? NuxeoException(nuxeoJSON: json)
    }

    private static func defaultMessage(for code: ProviderError.Code, status: Int) -> String {
        switch code {
        case .unauthorized: return "the server refused the credentials"
        case .forbidden: return "permission denied"
        case .notFound: return "no such document"
        case .conflict: return "the document was changed by someone else"
        case .preconditionFailed: return "the precondition failed"
        default: return "unexpected HTTP status \(status)"
        }
    }

    /// A message safe to show and log: redacted, single-line, bounded.
    private static func sanitize(_ text: String) -> String {
        var cleaned = Redactor.redact(text)
        cleaned = cleaned.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if cleaned.count > 500 { cleaned = String(cleaned.prefix(500)) + "…" }
        return cleaned.trimmingCharacters(in: .whitespaces)
    }

    /// Whether the 409 message is just the document uid, as the server writes it.
    private static func looksLikeIdentifier(_ text: String) -> Bool {
        !text.isEmpty && !text.contains(" ") && text.count <= 64
    }
}
