import Foundation
import ProviderAPI
import ProviderKit

extension LocalProvider {
    package func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try capabilities.require(options)
        guard !path.isRoot else { throw ProviderError(.invalidArgument, "/ is a folder, not a file") }
        guard Self.isVisible(path.name) else { throw ProviderError(.notFound, "\(path) does not exist") }
        // The folder, kept open for the next files in it (`LocalFolderCache`), then the file in it.
        // The item of a download says what was sent (size, time, etag, type); its permissions are
        // left unknown, as a server's answer to GET leaves them: they cost three `faccessat` calls
        // per file, a third of the local side of a copy of many small files.
        let (file, item) = try await BlockingIO.run { () throws -> (LocalFile, Item) in
            let file = try folders.folder(at: path.parent).openFile(named: path.name)
            return (file, self.item(try file.checkedEntry ?? file.entry(), at: path, in: nil, permissions: false))
        }
        let point = options.resume && options.range == nil ? try await sink.resumePoint() : nil
        let plan = try DownloadPlan(options: options, item: item, resumePoint: point)
        let driver = DownloadDriver(plan: plan, item: item, options: options, request: "download \(path)")
        return try await driver.run(file.chunks(from: plan.start, to: plan.end), into: sink)
    }

    package func upload(_ source: any UploadSource, to folderPath: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try capabilities.require(options)
        try checkNew(name)
        let folder = try await BlockingIO.run { try folders.folder(at: folderPath) }
        let (placed, entry) = try await UploadPlacement.place(
            name, in: folderPath, options: options,
            existing: { candidate in
                guard let entry = try await BlockingIO.run({ try folder.entry(named: candidate) }), entry.kind == .file || entry.kind == .folder
                else { return nil }
                return Item(path: try folderPath.appending(candidate), kind: entry.kind == .folder ? .folder : .file, etag: entry.etag)
            },
            write: { candidate, placement in
                let entry = try await folder.commit(
                    try source.makeStream(), as: candidate, placement: placement, modified: options.modified,
                    expectedLength: source.length, progress: options.progress)
                return (candidate, entry)
            })
        let path = try folderPath.appending(placed)
        return try await BlockingIO.run { item(entry, at: path, in: folder) }
    }

    package func createFolder(named name: String, in parentPath: ItemPath) async throws -> Item {
        try checkNew(name)
        return try await BlockingIO.run {
            let parent = try folders.folder(at: parentPath)
            try parent.makeFolder(named: name)
            guard let entry = try parent.entry(named: name) else { throw ProviderError(.notFound, "\(name) vanished once created") }
            return item(entry, at: try parentPath.appending(name), in: parent)
        }
    }

    package func delete(_ path: ItemPath) async throws {
        guard !path.isRoot else { throw ProviderError(.forbidden, "the root cannot be deleted") }
        let (parent, entry) = try await BlockingIO.run { try locate(path) }
        if entry.kind == .folder {
            defer { folders.forgetAll() }
            try await parent.removeTree(named: path.name)
        } else {
            try await BlockingIO.run { try parent.removeFile(named: path.name) }
        }
    }

    package func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.move, for: "move")
        let (from, entry, to) = try await prepareTransfer(source, destination, options)
        defer { if entry.kind == .folder { folders.forgetAll() } }
        return try await BlockingIO.run {
            if entry.kind == .file, !options.overwrite, try to.entry(named: destination.name) == nil {
                try from.link(source.name, to: to, as: destination.name)  // atomic: fails if the name was taken meanwhile
                try from.removeFile(named: source.name)
            } else {
                try from.rename(source.name, to: to, as: destination.name)
            }
            return try itemNow(at: destination)
        }
    }

    package func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.copy, for: "copy")
        let (from, entry, to) = try await prepareTransfer(source, destination, options)
        try await copy(source.name, kind: entry.kind, from: from, to: to, as: destination.name, replace: options.overwrite)
        return try await BlockingIO.run { try itemNow(at: destination) }
    }

    package func quota() async throws -> Quota {
        let space = try await BlockingIO.run { try root.space() }
        return Quota(used: space.used, available: space.available, total: space.total)
    }

    // MARK: Helpers

    /// Checks a move or copy and clears the way: the source's folder and entry, and the target's
    /// folder, with anything at the target removed when `overwrite` allows (but a file that a
    /// file replaces, which `rename` replaces atomically).
    private func prepareTransfer(
        _ source: ItemPath, _ destination: ItemPath, _ options: TransferOptions
    ) async throws -> (from: LocalFolder, entry: LocalEntry, to: LocalFolder) {
        try source.checkTransfer(to: destination)
        try checkNew(destination.name)
        let (from, entry, to, existing) = try await BlockingIO.run {
            let (from, entry) = try locate(source)
            let to = try folders.folder(at: destination.parent)
            return (from, entry, to, try to.entry(named: destination.name))
        }
        guard let existing, existing.stableID != entry.stableID else { return (from, entry, to) }
        guard options.overwrite else { throw ProviderError(.alreadyExists, "\(destination) already exists") }
        if existing.kind == .folder {
            defer { folders.forgetAll() }
            try await to.removeTree(named: destination.name)
        } else if entry.kind == .folder {
            try await BlockingIO.run { try to.removeFile(named: destination.name) }
        }
        return (from, entry, to)
    }

    /// Copies the file or folder `name` of `from` to `newName` in `to`: files atomically, with
    /// their modified time; folders entry by entry, leaving out what listings leave out.
    private func copy(_ name: String, kind: LocalEntry.Kind, from: LocalFolder, to: LocalFolder, as newName: String, replace: Bool) async throws {
        try Task.checkCancellation()
        if kind == .file {
            let (file, entry) = try await BlockingIO.run {
                let file = try from.openFile(named: name)
                return (file, try file.checkedEntry ?? file.entry())
            }
            _ = try await to.commit(
                file.chunks(from: 0, to: entry.size), as: newName, placement: replace ? .replace : .exclusive, modified: entry.modified,
                expectedLength: entry.size)
            return
        }
        let (source, target, children) = try await BlockingIO.run {
            let source = try from.openFolder(named: name)
            try to.makeFolder(named: newName)
            let target = try to.openFolder(named: newName)
            let children = try source.names().filter(Self.isVisible).compactMap { child -> (String, LocalEntry.Kind)? in
                guard let entry = try source.entry(named: child), entry.kind == .file || entry.kind == .folder else { return nil }
                return (child, entry.kind)
            }
            return (source, target, children)
        }
        for (child, kind) in children {
            try await copy(child, kind: kind, from: source, to: target, as: child, replace: false)
        }
    }
}
