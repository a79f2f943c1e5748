import Foundation

/// A document's state as an audit entry saw it: enough to render a Drive
/// `fileSystemItem` later, even after the document moved or was deleted.
struct DocumentSnapshot: Sendable {
    let uid: String
    /// `dc:title` (falling back to the name), Drive's item name.
    let title: String
    let isFolderish: Bool
    let isTrashed: Bool
    let creator: String?
    let lastContributor: String?
    let created: Int64?
    let modified: Int64?
    let blobFilename: String?
    let blobDigest: String?
    /// Ancestor uids from the repository root down to the parent.
    let ancestors: [String]

    init(_ doc: StoredDocument, ancestors: [String]) {
        uid = doc.uid
        title = doc.displayTitle
        isFolderish = doc.isFolderish
        isTrashed = doc.isTrashed
        creator = doc.creator
        lastContributor = doc.lastContributor
        created = doc.created
        modified = doc.modified
        blobFilename = doc.blob?.filename
        blobDigest = doc.blob?.digest
        self.ancestors = ancestors
    }

    /// The ancestors followed by the document itself.
    var chain: [String] { ancestors + [uid] }

    /// Drive adapts folderish documents and documents with a blob, never trashed ones.
    var isAdaptable: Bool { !isTrashed && (isFolderish || blobDigest != nil) }
}
