import Foundation
import ProviderAPI

extension ProviderError {
    /// Maps an HTTP status to the `ProviderError.Code` that a generic HTTP server means by it.
    ///
    /// Adapters refine this with what their protocol says (WebDAV's 405 on MKCOL
    /// means the folder exists; a 409 on PUT means a missing parent).
    public static func code(forHTTPStatus status: Int) -> Code {
        switch status {
        case 401: return .unauthorized
        case 403: return .forbidden
        case 404, 410: return .notFound
        case 409, 423, 424: return .conflict
        case 412: return .preconditionFailed
        case 413, 507: return .quotaExceeded
        case 416: return .invalidArgument
        case 429: return .rateLimited
        case 400, 405, 406, 411, 414, 415, 422: return .server
        default: return .server
        }
    }

    /// An error for an unexpected HTTP answer.
    public static func http(
        status: Int, request: String?, message: String? = nil, retryAfter: Duration? = nil
    ) -> ProviderError {
        ProviderError(
            code(forHTTPStatus: status), message ?? "unexpected HTTP status \(status)",
            httpStatus: status, request: request, retryAfter: retryAfter)
    }
}
