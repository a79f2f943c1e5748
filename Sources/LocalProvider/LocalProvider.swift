import Foundation
import ProviderAPI
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A provider over a folder of the local file system: the reference adapter, written with
/// ProviderKit alone.
///
/// - **Confined to its root.** Every call walks from the root's descriptor one name at a time
///   (`LocalFolder`), never following a symbolic link, so no path (`ItemPath` has no `..`)
///   and no link, even one swapped in while a call runs, reaches outside the root. The folders
///   opened lately are kept open for two seconds (`LocalFolderCache`), so that a walk reaches
///   each folder from its parent, not from the root: the time of a walk is linear in the depth
///   of the tree. A kept folder is used only while its parent still holds it under its name (a
///   folder swapped for a link is opened anew, and refused); a folder this provider moves or
///   deletes is let go at once.
/// - **Symbolic links are not shown.** A link inside the root (and a FIFO, socket or device) is
///   left out of listings and is `ProviderError.Code.notFound` to every call; its name still
///   counts as taken (a `.fail` upload or folder there is `ProviderError.Code.alreadyExists`),
///   an overwrite replaces the link itself, and deleting a folder removes the links in it, never
///   their targets.
/// - **Atomic writes.** Uploads and copied files are written to a hidden temporary file
///   (`LocalFolder.temporaryPrefix`, never listed), flushed, and renamed, or linked under
///   `.fail`/`.rename` so the file system decides who takes a name.
/// - Items carry the device and inode as their id. It survives a move or rename but not an
///   overwrite (an atomic write is a new file), so `.stableIDs` is not declared. Items also carry
///   an etag from the modified time, size and inode, the MIME type guessed from the name
///   (`MIMETypes`; a type given at upload is not kept), and permissions as `access(2)` answers
///   for this process.
///   Modified times are kept to the microsecond (coarser on FAT or HFS+).
/// - **Names as the file system tells them apart.** `Capabilities.names` says what the root's file
///   system does (`LocalFolder.nameRules(maxNameBytes:)`): on ext4, case-sensitive and byte-exact,
///   so the NFC and NFD spellings of `café.txt` are two files and both are listed; in a
///   case-folding folder, or on APFS, one name. Only the root is asked (a folder below it made
///   case-folding with `chattr +F` is not).
/// - Not atomic: `ifMatch` is checked just before the write, and a move or copy without
///   `overwrite` checks the target before renaming a folder.
///
/// ```swift
/// let provider = try LocalProvider(root: URL(fileURLWithPath: "/srv/files"))
/// let page = try await provider.list("/", page: .first)
/// ```
package struct LocalProvider: StorageProvider {
    package let capabilities: Capabilities
    package let account: ProviderAccount
    /// The root folder, opened once.
    let root: LocalFolder
    /// The folders opened lately, each reached from the one above it.
    let folders: LocalFolderCache

    /// A provider rooted at the folder `root` (a `file` URL), which must exist.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not a `file` URL;
    ///   `ProviderError.Code.notFound` when there is no folder there.
    package init(root: URL) throws {
        guard root.isFileURL else { throw ProviderError(.invalidArgument, "\(Redactor.redact(url: root)) is not a file URL") }
        self.root = try LocalFolder.open(path: root.path)
        folders = LocalFolderCache(root: self.root)
        account = ProviderAccount(kind: "local", server: root.absoluteString)
        // Asked of the file system (`LocalFolder.nameRules`): ext4 is case-sensitive and byte-exact,
        // a case-folding folder (`chattr +F`) or APFS is not.
        let names = self.root.nameRules(maxNameBytes: 255)
        capabilities = Capabilities(
            features: [
                .paging, .rangeDownload, .resumeDownload, .preconditions, .exclusiveCreate, .move, .copy, .setModifiedTime,
                .etags, .mimeTypes, .quota, .emptyFolders, .permissions,
            ],
            modifiedTimePrecision: .microseconds(1), names: names)
    }

    package func item(at path: ItemPath) async throws -> Item {
        try await BlockingIO.run { try self.itemNow(at: path) }
    }

    package func list(_ folderPath: ItemPath, page: PageRequest) async throws -> ItemPage {
        try await BlockingIO.run { try self.listNow(folderPath, page: page) }
    }

    // MARK: Helpers

    /// ``item(at:)``'s system calls, on the calling thread (a thread of the blocking pool).
    func itemNow(at path: ItemPath) throws -> Item {
        if path.isRoot { return item(try root.entry(), at: path, in: nil) }
        let (parent, entry) = try locate(path)
        return item(entry, at: path, in: parent)
    }

    /// ``list(_:page:)``'s system calls (a `stat` per entry), on the calling thread (a thread of
    /// the blocking pool).
    private func listNow(_ folderPath: ItemPath, page: PageRequest) throws -> ItemPage {
        let folder = try folders.folder(at: folderPath)
        // By exact bytes: the NFC and NFD spellings of `café.txt` are two files to ext4, and were
        // one key of a `[String: LocalEntry]` (Swift's `String ==` calls them equal).
        var entries: [NameKey: LocalEntry] = [:]
        var names: [String] = []
        var skipped: [SkippedEntry] = []
        for name in try folder.names() where Self.isVisible(name) {
            guard let entry = try folder.entry(named: name) else { continue }
            switch entry.kind {
            case .file, .folder:
                entries[NameKey(exact: name)] = entry
                names.append(name)
            case .symbolicLink: skipped.append(SkippedEntry(name: name, kind: .link, target: folder.linkTarget(named: name)))
            case .other: skipped.append(SkippedEntry(name: name, kind: .special))
            }
        }
        names = ListingPager.sorted(names)
        let (selected, next) = try ListingPager.page(of: names, request: page, scope: folderPath.description)
        // Links and specials go with the first page, so a listing by cursor has them once.
        if page.cursor != nil { skipped = [] }
        var items: [Item] = []
        for name in selected {
            if let entry = entries[NameKey(exact: name)] {
                items.append(item(entry, at: try folderPath.appending(name), in: folder, permissions: page.fields.contains(.permissions)))
            }
        }
        skipped.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return ItemPage(items: items, next: next, totalCount: names.count, skipped: skipped)
    }

    /// The folder holding `path` and what `path` is: a file or a folder, else `ProviderError.Code.notFound`.
    func locate(_ path: ItemPath) throws -> (parent: LocalFolder, entry: LocalEntry) {
        guard Self.isVisible(path.name) else { throw ProviderError(.notFound, "\(path) does not exist") }
        let parent = try folders.folder(at: path.parent)
        guard let entry = try parent.entry(named: path.name), entry.kind == .file || entry.kind == .folder else {
            throw ProviderError(.notFound, "\(path) does not exist")
        }
        return (parent, entry)
    }

    /// Whether a name is shown: the temporary files of uploads in progress are not.
    static func isVisible(_ name: String) -> Bool { !name.hasPrefix(LocalFolder.temporaryPrefix) }

    /// Throws `ProviderError.Code.invalidArgument` for a name that cannot be created here.
    func checkNew(_ name: String) throws {
        try ItemPath.validate(name: name)
        guard Self.isVisible(name) else { throw ProviderError(.invalidArgument, "names starting with \(LocalFolder.temporaryPrefix) are reserved") }
        guard capabilities.names.accepts(name) else { throw ProviderError(.invalidArgument, "the name \(name.debugDescription) is too long") }
    }

    /// The item for `entry` at `path`; `parent` (`nil` for the root) answers the permissions,
    /// unless `permissions` is `false`: then they are left unknown (`nil`).
    func item(_ entry: LocalEntry, at path: ItemPath, in parent: LocalFolder?, permissions withPermissions: Bool = true) -> Item {
        let name = path.name
        let isFolder = entry.kind == .folder
        var permissions: ItemPermissions?
        if withPermissions {
            func allows(_ mode: Int32) -> Bool { parent.map { $0.allows(mode, named: name) } ?? root.allows(mode) }
            var known: ItemPermissions = []
            if allows(isFolder ? R_OK | X_OK : R_OK) { known.insert(.read) }
            if allows(W_OK) { known.insert(.write) }
            if isFolder, allows(W_OK | X_OK) { known.insert(.createChildren) }
            if let parent, parent.allows(W_OK | X_OK) { known.formUnion([.delete, .rename]) }
            permissions = known
        }
        return Item(
            id: entry.stableID, path: path, kind: isFolder ? .folder : .file, size: isFolder ? nil : entry.size,
            modified: entry.modified, etag: entry.etag, mimeType: isFolder ? nil : MIMETypes.guess(name), permissions: permissions)
    }
}
