import Foundation
import ProviderAPI

/// An upload sent under a hidden temporary name in the target folder, then moved onto its final
/// name on the server, so that a failed or cancelled upload never leaves a partial file under that
/// name nor destroys the file it was to replace.
///
/// The adapter gives the three requests it knows how to make, as closures: `put` sends the body
/// to the temporary name, `place` moves the temporary onto the final name under the caller's
/// conflict rules (fail on a taken name, replace it, or pick a free one, and return what it
/// made), `delete` removes the temporary. The helper chooses the temporary name, and when `put`
/// or `place` fails, or the task is cancelled, deletes the temporary through
/// ``RequestExecutor/cleanup(_:timeout:_:)`` (so the delete is sent even after a cancellation)
/// before rethrowing the original error.
///
/// ```swift
/// let staged = StagedUpload(executor: executor)
/// return try await staged.run(
///     put: { temporary in try await self.put(source, folder: folder, name: temporary) },
///     place: { temporary in try await self.rename(temporary, in: folder, to: name, conflict: options.conflict) },
///     delete: { temporary in try await self.deleteFile(folder: folder, name: temporary) })
/// ```
///
/// The temporary is never the final name, so deleting it cannot touch the user's file; a
/// `delete` that finds it already gone (a `place` whose answer was lost after the move) should
/// succeed or fail harmlessly: its failure is only logged.
public struct StagedUpload: Sendable {
    /// The executor whose `cleanup` runs the delete, and whose logger hears of a failed delete.
    let executor: RequestExecutor
    /// The longest the delete of the temporary may take after a failure or cancellation.
    let cleanupTimeout: Duration

    /// Creates a staged upload whose cleanup runs through `executor`'s
    /// ``RequestExecutor/cleanup(_:timeout:_:)``, each bounded by `cleanupTimeout`.
    public init(executor: RequestExecutor, cleanupTimeout: Duration = RequestExecutor.defaultCleanupTimeout) {
        self.executor = executor
        self.cleanupTimeout = cleanupTimeout
    }

    /// A fresh temporary name: hidden (a leading dot), marked as Strata's
    /// (`.strata-upload-<random>.tmp`), and different on every call.
    public static func temporaryName() -> String {
        ".strata-upload-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
    }

    /// Uploads through a temporary name: `put`, then `place`; on any failure or cancellation
    /// `delete`, shielded, before the error is rethrown.
    ///
    /// - Parameters:
    ///   - temporaryName: the name the body is sent under, in the target folder;
    ///     ``temporaryName()`` by default.
    ///   - put: sends the body to the temporary name it is given.
    ///   - place: moves the temporary it is given onto the final name, keeping the caller's
    ///     conflict rules, and returns what the upload made (the final item).
    ///   - delete: deletes the temporary it is given; runs in a task of its own, after the
    ///     caller may have been cancelled.
    /// - Returns: what `place` returned.
    /// - Throws: the error of `put` or `place` (`ProviderError.Code.cancelled` when the task was
    ///   cancelled before `place` succeeded); never the error of `delete`.
    public func run<Placed: Sendable>(
        temporaryName: String = StagedUpload.temporaryName(),
        put: (_ temporaryName: String) async throws -> Void,
        place: (_ temporaryName: String) async throws -> Placed,
        delete: @escaping @Sendable (_ temporaryName: String) async throws -> Void
    ) async throws -> Placed {
        do {
            try await put(temporaryName)
            // A cancellation between the two is not left to the adapter's `place` to notice.
            if Task.isCancelled { throw ProviderError(.cancelled, "cancelled") }
            return try await place(temporaryName)
        } catch {
            await executor.cleanup("delete the temporary upload \(temporaryName)", timeout: cleanupTimeout) {
                try await delete(temporaryName)
            }
            throw ProviderError.wrap(error)
        }
    }
}
