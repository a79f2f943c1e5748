import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderKit

extension CopypartyProvider {
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
                    put: { staged in
                        try await server.put(
                            source, at: try folder.appending(staged), modified: options.modified, progress: options.progress)
                    },
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

    /// Moves `staged` to `target`, or, with `replacing`, puts it in place of what is there
    /// through the kit's `SwapReplace` (moved aside, `staged` moved in, the old item deleted, or
    /// moved back if `staged` could not be moved in).
    ///
    /// A move onto a `taken` name always goes through the swap: copyparty would merge a folder
    /// into the folder there, file by file, and stop at the first name both hold. Otherwise the
    /// move is tried first (`StagedUpload.place`); the server refuses a file name taken meanwhile
    /// before moving anything, and `replacing` then swaps when a file took it (not a folder, which
    /// a file never replaces; nor when `staged` is a `folder`, which may have been merged in part).
    func commit(_ staged: ItemPath, to target: ItemPath, replacing: Bool, taken: Bool, folder: Bool) async throws {
        let move: SwapReplace.Move = { [server] from, to in try await server.move(from, to: to) }
        let find: SwapReplace.Find = { [server] path in try await server.listing(of: path.parent).item(named: path.name) }
        let delete: SwapReplace.Delete = { [server] path in try await server.delete(path) }
        if taken {
            try await SwapReplace(executor: server.executor).replace(target, with: staged, move: move, find: find, delete: delete)
        } else {
            try await StagedUpload(executor: server.executor)
                .place(staged, at: target, replacing: replacing && !folder, move: move, find: find, delete: delete)
        }
    }
}
