import Foundation
import HTTPProviderKit
import ProviderAPI

extension CopypartyProvider {
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
}
