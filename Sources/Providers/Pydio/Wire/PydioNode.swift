import Foundation
import ProviderAPI

/// A file or folder as Pydio describes it: a `<tree …/>` element of `ls`, `nodes_diff` or `search`.
///
/// `filename` (the full path inside the workspace) is the node's identity, `text` its display
/// name. Sizes and times are read leniently: a missing or malformed number is `nil`.
public struct PydioNode: Sendable, Hashable {
    /// The path inside the workspace, such as `/fixtures/hello.txt`; `/` (or empty on Pydio 5/6) for the root.
    public var path: String
    /// The display name (`text`).
    public var name: String
    /// Whether it is a file (`is_file="true"`).
    public var isFile: Bool
    /// The size in bytes (`bytesize`).
    public var size: Int64?
    /// The modification time (`ajxp_modiftime`, Unix seconds).
    public var modified: Date?
    /// The octal permission string (`file_perms`), such as `0644`.
    public var permissions: String?
    /// Whether the node is read-only (`ajxp_readonly`).
    public var isReadOnly: Bool
    /// Whether it is the recycle bin (`ajxp_mime="ajxp_recycle"`).
    public var isRecycleBin: Bool
    /// Every attribute, as sent.
    public var attributes: [String: String]

    /// Reads a `<tree>` element; `nil` when it has no `filename`.
    public init?(_ element: XMLElementTree) {
        guard element.name == "tree", let path = element.attributes["filename"] else { return nil }
        let attributes = element.attributes
        self.path = path
        self.isFile = attributes["is_file"]?.lowercased() == "true"
        let fallback = path.split(separator: "/").last.map(String.init) ?? ""
        self.name = attributes["text"].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        self.size = attributes["bytesize"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        self.modified = attributes["ajxp_modiftime"].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) }
        self.permissions = attributes["file_perms"]
        self.isReadOnly = attributes["ajxp_readonly"]?.lowercased() == "true"
        self.isRecycleBin = attributes["ajxp_mime"] == "ajxp_recycle" || path == "/recycle_bin"
        self.attributes = attributes
    }

    /// The last segment of ``path``: the name the node is stored under.
    public var storedName: String { path.split(separator: "/").last.map(String.init) ?? "" }

    /// Portable permissions from ``permissions`` and ``isReadOnly``.
    public var itemPermissions: ItemPermissions {
        if isReadOnly { return [.read] }
        guard let permissions, let owner = permissions.dropFirst(permissions.count == 4 ? 1 : 0).first,
            let digit = owner.wholeNumberValue
        else { return [.read, .write, .delete, .rename, .createChildren] }
        var result: ItemPermissions = []
        if digit & 4 != 0 { result.insert(.read) }
        if digit & 2 != 0 { result.formUnion([.write, .delete, .rename, .createChildren]) }
        return result
    }
}
