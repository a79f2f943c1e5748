import Foundation
import ProviderAPI
import HTTPProviderKit

/// A file or folder as Pydio describes it: a `<tree …/>` element of `ls`, `nodes_diff` or `search`.
///
/// `filename` (the full path inside the workspace) is the node's identity, `text` its display
/// name. Sizes and times are read leniently where they are not numbers (missing, empty or text:
/// `nil`), strictly where they are: a negative or overflowing size, or a time that is not finite
/// or lies outside the years 1–9999 (`inf`, `nan`, `1e300`), is `ProviderError.Code.invalidResponse`.
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
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` for a size or time out of range.
    package init?(_ element: XMLElementTree) throws {
        guard element.name == "tree", let path = element.attributes["filename"] else { return nil }
        let attributes = element.attributes
        self.path = path
        self.isFile = attributes["is_file"]?.lowercased() == "true"
        let fallback = path.split(separator: "/").last.map(String.init) ?? ""
        self.name = attributes["text"].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        self.size = try attributes["bytesize"].flatMap { try Self.size($0, of: path) }
        self.modified = try attributes["ajxp_modiftime"].flatMap { try Self.time($0, of: path) }
        self.permissions = attributes["file_perms"]
        self.isReadOnly = attributes["ajxp_readonly"]?.lowercased() == "true"
        self.isRecycleBin = attributes["ajxp_mime"] == "ajxp_recycle" || path == "/recycle_bin"
        self.attributes = attributes
    }

    /// A `bytesize`: `nil` when it is not a number; an error when it is one out of range.
    static func size(_ text: String, of path: String) throws -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Int64(trimmed) {
            guard value >= 0 else { throw Self.outOfRange("bytesize", text, of: path) }
            return value
        }
        // Digits that do not fit, or a number written as a double: out of range, not "unknown".
        if trimmed.first.map({ $0.isNumber || $0 == "-" || $0 == "+" }) == true, Double(trimmed) != nil {
            throw Self.outOfRange("bytesize", text, of: path)
        }
        return nil
    }

    /// An `ajxp_modiftime`: `nil` when it is not a number; an error when it is one out of range.
    static func time(_ text: String, of path: String) throws -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let seconds = Double(trimmed) else { return nil }
        guard let date = UnixTime.date(seconds: seconds) else { throw Self.outOfRange("ajxp_modiftime", text, of: path) }
        return date
    }

    private static func outOfRange(_ attribute: String, _ text: String, of path: String) -> ProviderError {
        ProviderError(.invalidResponse, "the \(attribute) \"\(text.prefix(40))\" of \(path.prefix(200)) is out of range")
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
