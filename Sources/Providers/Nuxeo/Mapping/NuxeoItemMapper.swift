import Foundation
import ProviderAPI
import HTTPProviderKit

/// Maps a ``NuxeoDocument`` to a portable `Item`.
///
/// - `id` is the uid; `kind` is `.folder` when the facets contain `Folderish`.
/// - size, MIME type and digest come from the blob at ``blobXPath`` (`file:content`).
/// - `modified` is `dc:modified` (else the top-level `lastModified`); `created` is `dc:created`.
/// - `etag` is the `changeToken`.
/// - `permissions` come from the `permissions` enricher, when the request asked for it.
/// - `properties` holds every scalar schema property by xpath (`dc:creator`,
///   `file:content/digest`, `dc:contributors/0`) plus the system fields under NXQL's
///   names (`ecm:uuid`, `ecm:primaryType`, `ecm:path`, `ecm:currentLifeCycleState`, …).
///
/// The item's path is the caller's: the adapter decides how Nuxeo paths and display
/// names (``displayName(of:)``) become `ItemPath`s.
package struct NuxeoItemMapper: Sendable {
    /// The blob property that holds a file's content.
    package var blobXPath: String
    /// Whether a file's display name is its blob's filename rather than its `dc:title`.
    package var prefersBlobFilename: Bool

    /// Creates a mapper.
    package init(blobXPath: String = "file:content", prefersBlobFilename: Bool = true) {
        self.blobXPath = blobXPath
        self.prefersBlobFilename = prefersBlobFilename
    }

    /// The item for `document`, placed at `path`.
    package func item(from document: NuxeoDocument, at path: ItemPath) -> Item {
        let isFolder = document.isFolderish
        let blob = isFolder ? nil : document.blob(at: blobXPath)
        var digests: [DigestAlgorithm: String] = [:]
        if let digest = blob?.verifiableDigest { digests[digest.algorithm] = digest.hex }
        return Item(
            id: document.uid,
            path: path,
            kind: isFolder ? .folder : .file,
            size: blob?.length ?? (isFolder ? nil : document.properties["common:size"]?.int64Value.flatMap { $0 >= 0 ? $0 : nil }),
            modified: document.properties["dc:modified"]?.dateValue ?? document.lastModified,
            created: document.properties["dc:created"]?.dateValue,
            etag: document.changeToken,
            mimeType: blob?.mimeType.flatMap { $0.isEmpty ? nil : $0 },
            digests: digests,
            permissions: document.permissions.map(Self.permissions(from:)),
            properties: flattenedProperties(of: document))
    }

    /// The name a user sees: the blob's filename for a file (when ``prefersBlobFilename``),
    /// else `dc:title`, else the top-level `title`, else the last path segment, else the uid: the
    /// first of them that can be a path segment (a title such as `Q1/Q2` or `..` is passed over).
    ///
    /// The server's own `name` (the path segment) is not used: Nuxeo trims, truncates and
    /// suffixes it, so it is not the name the user chose.
    package func displayName(of document: NuxeoDocument) -> String {
        // A title is free text: "Q1/Q2", "..", or a NUL cannot be a path segment, so the next
        // candidate is taken (the document's own path segment, which the server keeps a name).
        // Each candidate is made only when the ones before it were passed over.
        func usable(_ candidate: String?) -> String? {
            candidate.flatMap { (try? ItemPath.validate(name: $0)) != nil ? $0 : nil }
        }
        if prefersBlobFilename, !document.isFolderish, let name = usable(document.blob(at: blobXPath)?.name) { return name }
        if let title = usable(document.properties["dc:title"]?.stringValue) { return title }
        if let title = usable(document.title) { return title }
        if let segment = usable(document.path.flatMap({ $0.split(separator: "/").last.map(String.init) })) { return segment }
        return document.uid
    }

    /// Portable permissions from Nuxeo permission names (`Read`, `Write`, `ReadWrite`,
    /// `RemoveChildren`, `AddChildren`, `WriteSecurity`, `Everything`, …).
    package static func permissions(from names: [String]) -> ItemPermissions {
        var result: ItemPermissions = []
        for name in names {
            switch name {
            case "Everything": result.formUnion(.all)
            case "Read", "Browse", "ReadProperties", "ReadChildren": result.insert(.read)
            case "Write", "WriteProperties": result.formUnion([.read, .write, .rename])
            case "ReadWrite": result.formUnion([.read, .write, .rename, .createChildren])
            case "AddChildren": result.insert(.createChildren)
            case "Remove", "ReadRemove", "RemoveChildren": result.insert(.delete)
            case "WriteSecurity", "ReadSecurity+WriteSecurity": result.insert(.share)
            default: break
            }
        }
        return result
    }

    /// Scalar properties by xpath plus the system fields (see the type's documentation).
    package func flattenedProperties(of document: NuxeoDocument) -> [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(document.properties.count + 15)
        for (key, value) in document.properties {
            Self.flatten(value, at: key, depth: 0, into: &result)
        }
        // Set one by one: no table of pairs is built for every document.
        result["ecm:uuid"] = document.uid
        if let value = document.repository { result["ecm:repository"] = value }
        if let value = document.path { result["ecm:path"] = value }
        if let value = document.type { result["ecm:primaryType"] = value }
        if let value = document.state { result["ecm:currentLifeCycleState"] = value }
        if let value = document.parentRef { result["ecm:parentId"] = value }
        if let value = document.changeToken { result["ecm:changeToken"] = value }
        if let value = document.title { result["ecm:title"] = value }
        if let value = document.versionLabel { result["ecm:versionLabel"] = value }
        if let value = document.lockOwner { result["ecm:lockOwner"] = value }
        if let value = document.isCheckedOut { result["ecm:isCheckedIn"] = value ? "false" : "true" }
        if let value = document.isVersion { result["ecm:isVersion"] = Self.text(value) }
        if let value = document.isProxy { result["ecm:isProxy"] = Self.text(value) }
        if let value = document.isTrashed { result["ecm:isTrashed"] = Self.text(value) }
        if !document.facets.isEmpty { result["ecm:mixinType"] = document.facets.joined(separator: ",") }
        return result
    }

    private static func text(_ flag: Bool) -> String { flag ? "true" : "false" }

    private static func flatten(_ value: JSONValue, at key: String, depth: Int, into result: inout [String: String]) {
        guard depth < 6 else { return }
        switch value {
        case .null:
            return
        case .string, .integer, .double, .bool:
            if let text = value.stringValue { result[key] = text }
        case .array(let elements):
            for (index, element) in elements.enumerated() where !element.isNull {
                flatten(element, at: key + "/" + String(index), depth: depth + 1, into: &result)
            }
        case .object(let members):
            for (name, member) in members where !member.isNull {
                flatten(member, at: key + "/" + name, depth: depth + 1, into: &result)
            }
        }
    }
}
