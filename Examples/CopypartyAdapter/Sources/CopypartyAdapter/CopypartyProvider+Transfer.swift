import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderKit

extension CopypartyProvider {
    /// Streams the file at `path` into `sink`, with `HTTPDownloader`'s range, resume and length
    /// rules. Its item (size and date) comes from the parent's listing first, so that a folder
    /// or a missing name fails before any byte.
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try capabilities.require(options)
        let item = try await item(at: path)
        guard !item.isFolder else { throw ProviderError(.invalidArgument, "\(path) is a folder, not a file") }
        var request = TransportRequest(method: .GET, url: server.url(path))
        request.label = "download \(path)"
        return try await HTTPDownloader(executor: server.executor).download(
            request, to: sink, options: options, expected: item,
            errorFor: { [request] response, body in CopypartyFailure.error(for: response, body: body, request: request) },
            itemFor: { _ in item })
    }

    /// Uploads `source` as `name` in `folder`: staged under a hidden name, then moved into place.
    ///
    /// A `PUT` writes straight into its target, and a cut one leaves its partial file there,
    /// so the bytes go to a hidden name first (the kit's `StagedUpload`: `.strata-upload-….tmp`,
    /// deleted on any failure or cancellation). The server's move then puts them
    /// under `name`, and refuses when the name is taken: that is the conflict check of
    /// `ConflictPolicy.fail` and `.rename` (`UploadPlacement` tries the next name). To replace a
    /// file, the old one is moved aside first and deleted once the new one is in place; if that
    /// fails the old one is moved back.
    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try capabilities.require(options)
        let placed = try await UploadPlacement.place(
            name, in: folder, options: options,
            // A missing folder is .notFound here (a PUT would create it).
            existing: { candidate in try await server.listing(of: folder).item(named: candidate) },
            write: { candidate, placement in
                try await StagedUpload(executor: server.executor).run(
                    put: { staged in try await server.put(source, at: try folder.appending(staged), modified: options.modified, progress: options.progress) },
                    place: { staged in
                        try await commit(
                            try folder.appending(staged), to: try folder.appending(candidate), replacing: placement == .replace,
                            taken: false, folder: false)
                        return candidate
                    },
                    delete: { [server] staged in try await server.delete(try folder.appending(staged)) })
            })
        return try await item(at: try folder.appending(placed))
    }

    /// Makes the folder `name` in `parent`.
    ///
    /// copyparty creates missing parent folders and answers a taken name with 405 (a folder) or
    /// 500 (a file), so the parent's listing is read first: a missing parent is `.notFound`, a
    /// taken name `.alreadyExists`.
    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        let path = try parent.appending(name)
        guard try await server.listing(of: parent).item(named: name) == nil else {
            throw ProviderError(.alreadyExists, "\(path) already exists")
        }
        do {
            try await server.makeFolder(name, in: parent)
        } catch let error as ProviderError where error.httpStatus == 405 || error.httpStatus == 500 {
            if (try? await item(at: path)) != nil { throw ProviderError(.alreadyExists, "\(path) already exists") }
            throw error
        }
        return try await item(at: path)
    }

    /// Moves the file or folder at `source` to `destination` on the server.
    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.move, for: "move")
        let (moved, taken) = try await checkTransfer(source, to: destination, options: options)
        try await commit(source, to: destination, replacing: options.overwrite, taken: taken, folder: moved.isFolder)
        return try await item(at: destination)
    }

    /// Copies the file or folder at `source` to `destination` on the server; onto an existing
    /// item, through a hidden copy that then replaces it.
    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try capabilities.require(.copy, for: "copy")
        guard try await checkTransfer(source, to: destination, options: options).taken else {
            try await server.copy(source, to: destination)
            return try await item(at: destination)
        }
        let folder = destination.parent
        try await StagedUpload(executor: server.executor).run(
            put: { staged in try await server.copy(source, to: try folder.appending(staged)) },
            place: { staged in try await commit(try folder.appending(staged), to: destination, replacing: true, taken: true, folder: false) },
            delete: { [server] staged in try await server.delete(try folder.appending(staged)) })
        return try await item(at: destination)
    }

    /// Checks a move or copy before anything is sent; returns the source item and whether
    /// `destination` is taken.
    ///
    /// copyparty would merge a folder into a folder already there and create a missing parent,
    /// so both are looked at first: a missing source or destination folder is `.notFound`, a
    /// taken destination without `overwrite` `.alreadyExists`.
    private func checkTransfer(
        _ source: ItemPath, to destination: ItemPath, options: TransferOptions
    ) async throws -> (item: Item, taken: Bool) {
        guard !source.isRoot, !destination.isRoot, source != destination, !destination.isDescendant(of: source) else {
            throw ProviderError(.invalidArgument, "cannot move or copy \(source) to \(destination)")
        }
        let item = try await item(at: source)
        let taken = try await server.listing(of: destination.parent).item(named: destination.name) != nil
        if taken, !options.overwrite { throw ProviderError(.alreadyExists, "\(destination) already exists") }
        return (item, taken)
    }

    /// Moves `staged` to `target`, or, with `replacing`, puts it in place of what is there:
    /// that is moved aside, `staged` moved in, and the old item deleted, or moved back if
    /// `staged` could not be moved in.
    ///
    /// A move onto a `taken` name always goes through the swap: copyparty would merge a folder
    /// into the folder there, file by file, and stop at the first name both hold. Otherwise the
    /// move is tried first; the server refuses a file name taken meanwhile before moving anything,
    /// and `replacing` then swaps (not for a `folder`, which may have been merged in part).
    func commit(_ staged: ItemPath, to target: ItemPath, replacing: Bool, taken: Bool, folder: Bool) async throws {
        if !taken {
            do {
                try await server.move(staged, to: target)
                return
            } catch let error as ProviderError where error.code == .alreadyExists && replacing && !folder {}
        }
        let aside = try target.parent.appending(StagedUpload.temporaryName())
        do {
            try await server.move(target, to: aside)
            try await server.move(staged, to: target)
        } catch {
            // Shielded (after a cancellation the old item must still go back), and from what the
            // listing shows: a move whose answer was lost may have been made or not.
            await server.executor.cleanup("move \(aside) back to \(target)") { [server] in
                let folder = try await server.listing(of: target.parent)
                guard folder.item(named: aside.name) != nil else { return }
                guard folder.item(named: target.name) == nil else {
                    throw ProviderError(.conflict, "\(target) was partly replaced; the old one is kept as \(aside)")
                }
                try await server.move(aside, to: target)
            }
            throw error
        }
        await server.executor.cleanup("delete the replaced \(aside)") { [server] in try await server.delete(aside) }
    }
}
