import Foundation
import ProviderAPI
import HTTPProviderKit

/// The Nuxeo `exception` entity, the JSON body of an error answer.
///
/// Only `status` and `message` are read as meaningful; the rest (`code`, `stacktrace`,
/// the extended `exception` object) is optional and never shown to users.
package struct NuxeoException: NuxeoEntityDecodable, Hashable {
    package static let entityType = "exception"

    /// The HTTP status the server meant.
    package var status: Int?
    /// The server's message; for a stale change token, the document uid.
    package var message: String?
    /// The exception class (`code` on ~7.x servers, `exception.className` in extended mode).
    package var className: String?
    /// The stack trace text, only when the server's stack display is on.
    package var stacktrace: String?

    /// Creates an exception value.
    package init(status: Int?, message: String?, className: String? = nil, stacktrace: String? = nil) {
        self.status = status
        self.message = message
        self.className = className
        self.stacktrace = stacktrace
    }

    package init(nuxeoJSON json: JSONValue) throws {
        let entity = "exception"
        let members = try json.entityMembers(entity)
        if let type = members["entity-type"]?.stringValue, type != Self.entityType {
            throw ProviderError(.invalidResponse, "expected a Nuxeo exception, got entity-type \"\(type)\"")
        }
        status = try members.optionalInt("status", in: entity)
        message = try members.optionalString("message", in: entity)
        className = (try members.optionalString("code", in: entity)) ?? members["exception"]?["className"]?.stringValue
        stacktrace = members["stacktrace"]?.stringValue ?? members["stack"]?.stringValue
    }
}
