import Foundation
import ProviderAPI
import HTTPProviderKit

/// One audit entry: the `logEntry` entity of the `@audit` adapter, or one element of the
/// JSON blob the admin-only `Audit.Query` operation returns.
///
/// The two shapes name some fields differently (`principalName`/`principal`,
/// `repositoryId`/`repoId`); both are read.
package struct NuxeoLogEntry: NuxeoEntityDecodable, Hashable {
    package static let entityType = "logEntry"

    /// The entry id, where sent.
    package var id: Int64?
    /// The event (`documentCreated`, `documentModified`, `loginSuccess`, …).
    package var eventId: String
    /// The event category (`eventDocumentCategory`, `NuxeoAuthentication`).
    package var category: String?
    /// When the event happened.
    package var eventDate: Date?
    /// When it was logged.
    package var logDate: Date?
    /// Who caused it.
    package var principalName: String?
    /// A free comment.
    package var comment: String?
    /// The document uid, for document events.
    package var docUUID: String?
    /// The document type.
    package var docType: String?
    /// The document path at the time.
    package var docPath: String?
    /// The document lifecycle state at the time.
    package var docLifeCycle: String?
    /// The repository.
    package var repositoryId: String?
    /// Extended information.
    package var extended: [String: JSONValue]

    package init(nuxeoJSON json: JSONValue) throws {
        let entity = "logEntry"
        let members = try json.entityMembers(entity)
        id = try members.optionalInt64("id", in: entity)
        eventId = try members.requiredString("eventId", in: entity)
        category = try members.optionalString("category", in: entity)
        eventDate = members.optionalDate("eventDate")
        logDate = members.optionalDate("logDate")
        principalName = try members.optionalString("principalName", in: entity)
            ?? members.optionalString("principal", in: entity)
        comment = try members.optionalString("comment", in: entity)
        docUUID = try members.optionalString("docUUID", in: entity)
        docType = try members.optionalString("docType", in: entity)
        docPath = try members.optionalString("docPath", in: entity)
        docLifeCycle = try members.optionalString("docLifeCycle", in: entity)
        repositoryId = try members.optionalString("repositoryId", in: entity)
            ?? members.optionalString("repoId", in: entity)
        extended = try members.optionalObject("extended", in: entity)
    }
}

/// A list of audit entries: the `logEntries` entity, or the bare JSON array of `Audit.Query`.
package struct NuxeoLogEntryList: NuxeoEntityDecodable, Hashable {
    package static let entityType = "logEntries"

    /// The entries, in server order.
    package var entries: [NuxeoLogEntry]

    package init(nuxeoJSON json: JSONValue) throws {
        switch json {
        case .array(let elements):
            entries = try elements.map(NuxeoLogEntry.init(nuxeoJSON:))
        case .object(let members):
            entries = try members.optionalArray("entries", in: "logEntries").map(NuxeoLogEntry.init(nuxeoJSON:))
        default:
            throw ProviderError(.invalidResponse, "a Nuxeo audit list must be an array or a logEntries object")
        }
    }

    /// Decodes an `Audit.Query` answer or a `logEntries` entity.
    package static func decode(_ data: Data) throws -> NuxeoLogEntryList {
        try NuxeoLogEntryList(nuxeoJSON: NuxeoJSON.parse(data))
    }
}
