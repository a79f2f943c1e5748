import Foundation
import ProviderAPI
import HTTPProviderKit

/// A decoded Nuxeo entity, chosen by its `entity-type`.
package enum NuxeoEntity: Sendable {
    /// A `document`.
    case document(NuxeoDocument)
    /// A `documents` page.
    case documents(NuxeoDocumentList)
    /// An `exception` (an error body).
    case exception(NuxeoException)
    /// A `login` answer.
    case login(NuxeoLogin)
    /// A `user`.
    case user(NuxeoUser)
    /// A `logEntry`.
    case logEntry(NuxeoLogEntry)
    /// A `logEntries` list, or a bare `Audit.Query` array.
    case logEntries(NuxeoLogEntryList)
    /// An `acls` answer of the `@acl` adapter.
    case acls(NuxeoACLList)
    /// An entity decoded by a type the app registered.
    case custom(any NuxeoEntityDecodable)
    /// An entity type nobody registered, or JSON without `entity-type`, kept whole.
    case unknown(entityType: String?, json: JSONValue)

    /// The entity-type string this value was decoded from, when known.
    package var entityType: String? {
        switch self {
        case .document: return NuxeoDocument.entityType
        case .documents: return NuxeoDocumentList.entityType
        case .exception: return NuxeoException.entityType
        case .login: return NuxeoLogin.entityType
        case .user: return NuxeoUser.entityType
        case .logEntry: return NuxeoLogEntry.entityType
        case .logEntries: return NuxeoLogEntryList.entityType
        case .acls: return NuxeoACLList.entityType
        case .custom(let value): return type(of: value).entityType
        case .unknown(let entityType, _): return entityType
        }
    }

    /// The document, when this is one.
    package var document: NuxeoDocument? {
        if case .document(let value) = self { return value }
        return nil
    }

    /// The document page, when this is one.
    package var documents: NuxeoDocumentList? {
        if case .documents(let value) = self { return value }
        return nil
    }

    /// The exception, when this is one.
    package var exception: NuxeoException? {
        if case .exception(let value) = self { return value }
        return nil
    }

    /// The app-registered value, when it is of type `T`.
    package func custom<T: NuxeoEntityDecodable>(as type: T.Type) -> T? {
        if case .custom(let value) = self { return value as? T }
        return nil
    }
}
