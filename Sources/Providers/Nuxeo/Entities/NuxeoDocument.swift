import Foundation
import ProviderAPI
import HTTPProviderKit

/// The Nuxeo `document` entity.
///
/// Decoded leniently: unknown keys are ignored (and kept in ``raw``), optional keys may be
/// missing or null, booleans and numbers may come as strings, and dates may carry 0–9
/// fraction digits, an offset, or be epoch milliseconds. Only `uid` is required.
public struct NuxeoDocument: NuxeoEntityDecodable, Hashable {
    package static let entityType = "document"

    /// The repository name (`default`).
    package var repository: String?
    /// The document's identity; stable across renames and moves.
    public var uid: String
    /// The absolute repository path (`/default-domain/workspaces/ws/file`); it changes on rename, move and trash.
    public var path: String?
    /// The document type (`File`, `Folder`, `Workspace`, `Note`, `Root`, …).
    public var type: String?
    /// The lifecycle state (`project`, `deleted`, …); `nil` for the root.
    package var state: String?
    /// The parent's uid; `"/"` for the root.
    package var parentRef: String?
    /// Whether the document is checked out (editable, not a frozen version).
    package var isCheckedOut: Bool?
    /// Whether the document is a version.
    package var isVersion: Bool?
    /// Whether the document is a proxy.
    package var isProxy: Bool?
    /// Whether the document is in the trash (servers 10.1 and later).
    package var isTrashed: Bool?
    /// The opaque optimistic-locking token (`"1-0"`; legacy servers send epoch milliseconds as a string).
    public var changeToken: String?
    /// The title the server computed (`dc:title` or the name).
    public var title: String?
    /// The version label, only with `fetch-document: versionLabel`.
    package var versionLabel: String?
    /// The lock owner, only with `fetch-document: lock` on a locked document.
    package var lockOwner: String?
    /// When the lock was taken.
    package var lockCreated: Date?
    /// `dc:modified`, as the top-level `lastModified` field.
    public var lastModified: Date?
    /// The schema properties by xpath (`dc:title`, `file:content`), present only when the request asked for them.
    public var properties: [String: JSONValue]
    /// The facets (`Folderish`, `Versionable`, `Downloadable`, …).
    package var facets: [String]
    /// The schemas, by name and prefix, on servers that send them.
    package var schemas: [NuxeoSchemaReference]
    /// The enricher outputs (`acls`, `permissions`, `thumbnail`, `children`, …).
    package var contextParameters: [String: JSONValue]
    /// The whole entity as received, for fields this model does not name (`isRecord`, `retainUntil`, …).
    public var raw: JSONValue

    package init(nuxeoJSON json: JSONValue) throws {
        let entity = "document"
        let members = try json.entityMembers(entity)
        if let type = members["entity-type"]?.stringValue, type != Self.entityType {
            throw ProviderError(.invalidResponse, "expected a Nuxeo document, got entity-type \"\(type)\"")
        }
        uid = try members.requiredString("uid", in: entity)
        repository = try members.optionalString("repository", in: entity)
        path = try members.optionalString("path", in: entity)
        type = try members.optionalString("type", in: entity)
        state = try members.optionalString("state", in: entity)
        parentRef = try members.optionalString("parentRef", in: entity)
        isCheckedOut = try members.optionalBool("isCheckedOut", in: entity)
        isVersion = try members.optionalBool("isVersion", in: entity)
        isProxy = try members.optionalBool("isProxy", in: entity)
        isTrashed = try members.optionalBool("isTrashed", in: entity)
        changeToken = try members.optionalString("changeToken", in: entity)
        title = try members.optionalString("title", in: entity)
        versionLabel = try members.optionalString("versionLabel", in: entity)
        lockOwner = try members.optionalString("lockOwner", in: entity)
        lockCreated = members.optionalDate("lockCreated")
        lastModified = members.optionalDate("lastModified")
        properties = try members.optionalObject("properties", in: entity)
        facets = try members.optionalStrings("facets", in: entity)
        schemas = try members.optionalArray("schemas", in: entity).map(NuxeoSchemaReference.init(json:))
        contextParameters = try members.optionalObject("contextParameters", in: entity)
        raw = json
    }

    /// Whether the document is a folder: its facets contain `Folderish`.
    ///
    /// When the server sent no facets at all (the recorded `documentRoot.json` has none), the
    /// standard container types (`standardFolderishTypes`) count as folders, so the root is one.
    public var isFolderish: Bool {
        if facets.contains("Folderish") { return true }
        guard facets.isEmpty, let type else { return false }
        return Self.standardFolderishTypes.contains(type)
    }

    /// The stock Nuxeo document types that carry the `Folderish` facet, used only when a
    /// document arrives without facets.
    package static let standardFolderishTypes: Set<String> = [
        "Root", "Domain", "Folder", "OrderedFolder", "Workspace", "WorkspaceRoot", "Section", "SectionRoot",
        "TemplateRoot", "UserWorkspacesRoot", "Collections", "Collection", "AdministrativeStatusContainer",
    ]

    /// The value at a property xpath such as `dc:title`, `file:content/length` or `files:files/0/file`.
    public func property(_ xpath: String) -> JSONValue? {
        // A top-level property (`file:content`, every listing's blob) needs no splitting.
        if !xpath.utf8.contains(UInt8(ascii: "/")) { return properties[xpath] }
        var parts = xpath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, var value = properties[parts.removeFirst()] else { return nil }
        for part in parts {
            if let index = Int(part), case .array = value {
                guard let element = value[index] else { return nil }
                value = element
            } else {
                guard let member = value[part] else { return nil }
                value = member
            }
        }
        return value
    }

    /// The blob at `xpath` (`file:content` by default), or `nil` when there is none.
    package func blob(at xpath: String = "file:content") -> NuxeoBlob? {
        property(xpath).flatMap(NuxeoBlob.init(json:))
    }

    /// The ACLs from the `acls` enricher, in the order the server wrote them.
    package var acls: [NuxeoACL] {
        contextParameters["acls"]?.arrayValue?.compactMap(NuxeoACL.init(json:)) ?? []
    }

    /// The current user's permissions from the `permissions` enricher; `nil` without it.
    package var permissions: [String]? { contextParameters["permissions"]?.stringArrayValue }
}

/// One entry of a document's `schemas` list.
package struct NuxeoSchemaReference: Sendable, Hashable {
    /// The schema name (`dublincore`).
    package var name: String
    /// The property prefix (`dc`); may be missing on old servers.
    package var prefix: String?

    /// Creates a reference.
    package init(name: String, prefix: String?) {
        self.name = name
        self.prefix = prefix
    }

    init(json: JSONValue) throws {
        switch json {
        case .string(let name):
            self.init(name: name, prefix: nil)
        case .object(let members):
            self.init(
                name: try members.requiredString("name", in: "schema"),
                prefix: try members.optionalString("prefix", in: "schema"))
        default:
            throw ProviderError(.invalidResponse, "a Nuxeo schema reference must be an object or a string")
        }
    }
}
