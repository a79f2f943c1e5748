import NIOConcurrencyHelpers
import ProviderAPI

/// Folders this provider has seen exist, so an upload checks its folder once rather than before
/// every file: a server that creates missing parents on `PUT` (copyparty) is caught by that check.
/// Forgotten wholesale on any delete or move, which may have removed one.
final class KnownFolders: Sendable {
    private let folders = NIOLockedValueBox<Set<ItemPath>>([])

    /// Whether `folder` was seen to exist since the last ``forgetAll()``.
    func contains(_ folder: ItemPath) -> Bool { folders.withLockedValue { $0.contains(folder) } }

    /// Records that `folder` exists.
    func insert(_ folder: ItemPath) { folders.withLockedValue { _ = $0.insert(folder) } }

    /// Forgets every folder (after a delete or a move).
    func forgetAll() { folders.withLockedValue { $0.removeAll() } }
}
