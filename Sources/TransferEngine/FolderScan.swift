import ProviderAPI

/// The folders a plan listed, with the etags each side gave them, and the folders it left unlisted
/// because the job's record (``FolderVersion``) showed them unchanged on both sides: what the job
/// records once it has run (``FolderRecord``).
struct FolderScan: Sendable {
    /// One listed folder of the source, and its place on the destination.
    struct Listed: Sendable {
        /// Below the job's two roots.
        var relative: ItemPath
        /// The folder on the destination (made by the run where it was missing).
        var destination: ItemPath
        /// The source folder's etag when it was listed.
        var sourceETag: String?
        /// The destination folder's etag when it was listed; `nil` where it was missing.
        var destinationETag: String?
        /// The files directly in the source folder.
        var files: Int
    }

    /// The folders listed, in no particular order.
    var listed: [Listed] = []
    /// The folders not listed, as recorded: everything below each is the same on both sides.
    var unchanged: [FolderVersion] = []
    /// The entries the listings brought, on both sides.
    var entries = 0

    mutating func append(_ other: FolderScan) {
        listed += other.listed
        unchanged += other.unchanged
        entries += other.entries
    }
}
