import Foundation
import ProviderAPI

/// One write recorded in the ``SyncJournal`` while the server could not be reached (or in explicit offline mode).
///
/// Paths are the provider's paths. An upload's bytes are kept by the journal itself (see ``JournalContent``),
/// never evicted, until the entry is replayed or dropped.
public enum JournalAction: Sendable, Hashable, Codable {
    /// Create the folder at the path.
    case createFolder(ItemPath)
    /// Upload the kept content to the path (creating or replacing the file).
    case upload(ItemPath, JournalContent)
    /// Delete the item at the path (a folder with everything in it).
    case delete(ItemPath)
    /// Move or rename `from` to `to`.
    case move(from: ItemPath, to: ItemPath)
    /// Copy `from` to `to`.
    case copy(from: ItemPath, to: ItemPath)

    /// The kinds of action, for display and filtering.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// ``JournalAction/createFolder(_:)``.
        case createFolder
        /// ``JournalAction/upload(_:_:)``.
        case upload
        /// ``JournalAction/delete(_:)``.
        case delete
        /// ``JournalAction/move(from:to:)``.
        case move
        /// ``JournalAction/copy(from:to:)``.
        case copy
    }

    /// The kind of this action.
    public var kind: Kind {
        switch self {
        case .createFolder: return .createFolder
        case .upload: return .upload
        case .delete: return .delete
        case .move: return .move
        case .copy: return .copy
        }
    }

    /// The path the action writes: the new folder, the uploaded file, the deleted item, or the destination of a move or copy.
    public var path: ItemPath {
        switch self {
        case .createFolder(let path), .upload(let path, _), .delete(let path): return path
        case .move(_, let to), .copy(_, let to): return to
        }
    }

    /// The source of a move or copy; nil for the other actions.
    public var source: ItemPath? {
        switch self {
        case .move(let from, _), .copy(let from, _): return from
        default: return nil
        }
    }

    /// The kept content of an upload; nil for the other actions.
    public var content: JournalContent? {
        if case .upload(_, let content) = self { return content }
        return nil
    }

    /// Every path the action reads or writes (the source first).
    package var paths: [ItemPath] {
        if let source { return [source, path] }
        return [path]
    }

    /// One line for people: `upload /a/b.txt (12 bytes)`, `move /a → /b`.
    public var summary: String {
        switch self {
        case .createFolder(let path): return "createFolder \(path)"
        case .upload(let path, let content): return "upload \(path) (\(content.size) bytes)"
        case .delete(let path): return "delete \(path)"
        case .move(let from, let to): return "move \(from) → \(to)"
        case .copy(let from, let to): return "copy \(from) → \(to)"
        }
    }
}

/// The bytes of an offline upload, as the journal keeps them.
///
/// The bytes are copied into the cache directory's `journal/` folder, flushed to disk and
/// committed together with the journal entry before the upload call returns; they are not part
/// of the blob store's eviction.
public struct JournalContent: Sendable, Hashable, Codable {
    /// The number of bytes.
    public var size: Int64
    /// The lowercase hex SHA-256 of the bytes.
    public var sha256: String
    /// The modified time to give the file, where the provider can set it.
    public var modified: Date?
    /// The MIME type to declare.
    public var mimeType: String?

    /// Describes kept content.
    package init(size: Int64, sha256: String, modified: Date? = nil, mimeType: String? = nil) {
        self.size = size
        self.sha256 = sha256
        self.modified = modified
        self.mimeType = mimeType
    }
}
