import Foundation
import ProviderAPI

extension StagedUpload {
    /// The `place` step for a server whose move refuses a taken name (no overwriting move): moves
    /// `staged` to `target`, and when the server refuses because the name is taken and `replacing`
    /// is set, puts it in place of the file there through ``SwapReplace`` (the old file moved
    /// aside, the new one moved in, the old one deleted, or moved back if the move in fails).
    ///
    /// A folder at `target` is never replaced (a file does not replace a folder): the refusal is
    /// thrown as it is. The shielded steps run through this upload's executor and cleanup timeout.
    ///
    /// ```swift
    /// let staged = StagedUpload(executor: executor)
    /// try await staged.run(
    ///     put: { temporary in try await server.put(source, at: folder.appending(temporary)) },
    ///     place: { temporary in
    ///         try await staged.place(
    ///             try folder.appending(temporary), at: target, replacing: options.conflict == .overwrite,
    ///             move: { from, to in try await server.move(from, to: to) },
    ///             find: { path in try await server.item(at: path) },
    ///             delete: { path in try await server.delete(path) })
    ///     },
    ///     delete: { temporary in try await server.delete(try folder.appending(temporary)) })
    /// ```
    ///
    /// - Returns: `nil` when `staged` was moved onto a free name; else what the replace did.
    /// - Throws: the move's `ProviderError.Code.alreadyExists` when the name is taken and not
    ///   `replacing` (or by a folder); the errors of ``SwapReplace/replace(_:with:move:find:delete:)``.
    @discardableResult
    public func place(
        _ staged: ItemPath, at target: ItemPath, replacing: Bool, move: @escaping SwapReplace.Move, find: @escaping SwapReplace.Find,
        delete: @escaping SwapReplace.Delete
    ) async throws -> SwapReplace.Outcome? {
        do {
            try await move(staged, target)
            return nil
        } catch let error as ProviderError where error.code == .alreadyExists && replacing {
            // Taken: a file there is replaced, a folder never is.
            guard let taken = try await find(target), !taken.isFolder else { throw error }
        }
        return try await SwapReplace(executor: executor, cleanupTimeout: cleanupTimeout)
            .replace(target, with: staged, move: move, find: find, delete: delete)
    }
}
