/// The complete listings of a folder and of folders below it, read in one request: the answer of
/// ``StorageProvider/listTree(_:fields:maxEntries:)``.
///
/// Each folder the answer proves is present with its children (a ``FolderListing`` with its
/// completeness); a folder it does not prove is absent, and a caller lists that one on its own
/// (``StorageProvider/listing(_:pageSize:fields:)``). The root of the request is always present.
public struct TreeListing: Sendable {
    /// The folder the tree was read from.
    public let root: ItemPath
    private var folders: [ItemPath: FolderListing]

    /// Creates a tree listing of `root` from the listings of the folders it proves, which must
    /// include `root`'s own.
    public init(root: ItemPath, folders: [ItemPath: FolderListing]) {
        self.root = root
        self.folders = folders
    }

    /// The listing of `folder`'s children, or `nil` when the answer does not prove them.
    public func listing(of folder: ItemPath) -> FolderListing? { folders[folder] }

    /// Removes and returns the listing of `folder`, so a walk keeps no listing it already used.
    public mutating func take(_ folder: ItemPath) -> FolderListing? { folders.removeValue(forKey: folder) }

    /// The folders whose listings are here.
    public var coveredFolders: [ItemPath] { Array(folders.keys) }
}
