import Foundation
import ProviderAPI
import HTTPProviderKit

/// The answer of `NuxeoDrive.GetChangeSummary` (Nuxeo Drive server addon): what changed
/// under the user's synchronization roots since a previous ``upperBound``.
///
/// Store ``upperBound`` (the next call's `lowerBound`) and ``activeSynchronizationRootDefinitions``.
/// When ``hasTooManyChanges`` is true the list is truncated: rescan everything.
package struct NuxeoDriveChangeSummary: Sendable, Hashable {
    /// The changes, in server order; see ``changesNewestFirst``.
    package var changes: [NuxeoDriveChange]
    /// The server time of this summary.
    package var syncDate: Date?
    /// The audit log position to pass as the next `lowerBound`.
    package var upperBound: Int64?
    /// Whether there were more changes than the server's limit (1000 by default): rescan.
    package var hasTooManyChanges: Bool
    /// The synchronization roots, as the server lists them (`repository:uid`, comma separated).
    package var activeSynchronizationRootDefinitions: String?

    /// Decodes the JSON blob the operation returns.
    ///
    /// - Throws: `ProviderError` `invalidResponse` for malformed JSON or a wrong shape.
    package static func decode(_ data: Data) throws -> NuxeoDriveChangeSummary {
        try NuxeoDriveChangeSummary(json: NuxeoJSON.parse(data))
    }

    /// Decodes an already parsed answer.
    package init(json: JSONValue) throws {
        let entity = "Drive change summary"
        let members = try json.entityMembers(entity)
        changes = try members.optionalArray("fileSystemChanges", in: entity).map(NuxeoDriveChange.init(json:))
        syncDate = members.optionalDate("syncDate")
        upperBound = try members.optionalInt64("upperBound", in: entity)
        hasTooManyChanges = try members.optionalBool("hasTooManyChanges", in: entity) ?? false
        activeSynchronizationRootDefinitions = try members.optionalString("activeSynchronizationRootDefinitions", in: entity)
    }

    /// The root definitions split into (repository, uid) pairs.
    package var synchronizationRoots: [SynchronizationRoot] {
        guard let definitions = activeSynchronizationRootDefinitions else { return [] }
        return definitions.split(separator: ",").compactMap { definition in
            let trimmed = definition.trimmingCharacters(in: .whitespaces)
            guard let colon = trimmed.firstIndex(of: ":") else { return nil }
            let repository = String(trimmed[..<colon])
            let uid = String(trimmed[trimmed.index(after: colon)...])
            guard !repository.isEmpty, !uid.isEmpty else { return nil }
            return SynchronizationRoot(repository: repository, uid: uid)
        }
    }

    /// The changes sorted by event date, newest first, as Drive applies them.
    package var changesNewestFirst: [NuxeoDriveChange] {
        changes.enumerated().sorted { lhs, rhs in
            let left = lhs.element.eventDate ?? .distantPast
            let right = rhs.element.eventDate ?? .distantPast
            return left != right ? left > right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// One synchronization root.
    package struct SynchronizationRoot: Sendable, Hashable {
        /// The repository (`default`).
        package var repository: String
        /// The root document's uid.
        package var uid: String
    }
}

/// One entry of ``NuxeoDriveChangeSummary/changes``.
package struct NuxeoDriveChange: Sendable, Hashable {
    /// The repository.
    package var repositoryId: String?
    /// The event (`documentCreated`, `documentModified`, `deleted`, `securityUpdated`, `rootUnregistered`, …).
    package var eventId: String
    /// When it happened.
    package var eventDate: Date?
    /// The document's uid.
    package var docUuid: String?
    /// The file-system view of the document after the change; `nil` for deletions.
    package var fileSystemItem: NuxeoFileSystemItem?
    /// The file-system item id (`defaultFileSystemItemFactory#default#<uid>`).
    package var fileSystemItemId: String?
    /// The item's name.
    package var fileSystemItemName: String?

    /// Whether the change removes the item from the user's view (deleted, trashed, unregistered, no item).
    package var isRemoval: Bool {
        ["deleted", "rootUnregistered", "documentTrashed"].contains(eventId) || fileSystemItem == nil
    }

    init(json: JSONValue) throws {
        let entity = "Drive change"
        let members = try json.entityMembers(entity)
        repositoryId = try members.optionalString("repositoryId", in: entity)
        eventId = try members.requiredString("eventId", in: entity)
        eventDate = members.optionalDate("eventDate")
        docUuid = try members.optionalString("docUuid", in: entity)
        if let item = members["fileSystemItem"], !item.isNull {
            fileSystemItem = try NuxeoFileSystemItem(json: item)
        } else {
            fileSystemItem = nil
        }
        fileSystemItemId = try members.optionalString("fileSystemItemId", in: entity)
        fileSystemItemName = try members.optionalString("fileSystemItemName", in: entity)
    }
}

/// Nuxeo Drive's view of a document as a file or folder.
package struct NuxeoFileSystemItem: Sendable, Hashable {
    /// The item id (`factory#repository#uid`).
    package var id: String
    /// The parent item's id.
    package var parentId: String?
    /// The item's path of ids.
    package var path: String?
    /// The display name.
    package var name: String
    /// Whether it is a folder.
    package var isFolder: Bool
    /// Who created it.
    package var creator: String?
    /// Who changed it last.
    package var lastContributor: String?
    /// When it was created.
    package var creationDate: Date?
    /// When it was last changed.
    package var lastModificationDate: Date?
    /// Whether the user may rename it.
    package var canRename: Bool?
    /// Whether the user may delete it.
    package var canDelete: Bool?
    /// Whether the user may update the content (files).
    package var canUpdate: Bool?
    /// Whether the user may create children (folders).
    package var canCreateChild: Bool?
    /// Whether descendants can be scrolled (folders).
    package var canScrollDescendants: Bool?
    /// The lock, when locked.
    package var lockInfo: JSONValue?
    /// The user the item was computed for.
    package var userName: String?
    /// The download URL, relative to the server base (files).
    package var downloadURL: String?
    /// The digest algorithm name (files).
    package var digestAlgorithm: String?
    /// The digest (files); `notInBinaryStore` means "do not verify".
    package var digest: String?

    init(json: JSONValue) throws {
        let entity = "Drive file-system item"
        let members = try json.entityMembers(entity)
        id = try members.requiredString("id", in: entity)
        parentId = try members.optionalString("parentId", in: entity)
        path = try members.optionalString("path", in: entity)
        name = try members.requiredString("name", in: entity)
        isFolder = try members.optionalBool("folder", in: entity) ?? false
        creator = try members.optionalString("creator", in: entity)
        lastContributor = try members.optionalString("lastContributor", in: entity)
        creationDate = members.optionalDate("creationDate")
        lastModificationDate = members.optionalDate("lastModificationDate")
        canRename = try members.optionalBool("canRename", in: entity)
        canDelete = try members.optionalBool("canDelete", in: entity)
        canUpdate = try members.optionalBool("canUpdate", in: entity)
        canCreateChild = try members.optionalBool("canCreateChild", in: entity)
        canScrollDescendants = try members.optionalBool("canScrollDescendants", in: entity)
        lockInfo = members["lockInfo"].flatMap { $0.isNull ? nil : $0 }
        userName = try members.optionalString("userName", in: entity)
        downloadURL = try members.optionalString("downloadURL", in: entity)
        digestAlgorithm = try members.optionalString("digestAlgorithm", in: entity)
        digest = try members.optionalString("digest", in: entity)
    }

    /// The document uid inside ``id`` (its last `#`-separated part), when it has that form.
    package var documentUid: String? {
        guard let last = id.split(separator: "#").last, id.contains("#") else { return nil }
        return String(last)
    }
}
