import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Where a job with a backup directory (``TransferManager/Options/backupDirectory``) puts what it
/// would otherwise delete or overwrite on the destination: a folder of its own inside the backup
/// directory, named after the time the run started (`2026-11-28T02-05-18Z`, then `…-2`, `…-3` when
/// that exists), where each item goes under its path below the destination's root.
///
/// Items are moved there on the server (`move`), or where the destination cannot move, copied
/// there on the server and then deleted; a destination that can do neither is refused before the
/// job starts.
final class BackupFolder: Sendable {
    let provider: any StorageProvider
    /// The folder this run made inside the backup directory.
    let folder: ItemPath
    /// The destination's root: items keep their path below it.
    let destinationRoot: ItemPath
    /// Folders known to exist inside ``folder``.
    private let made = NIOLockedValueBox<Set<ItemPath>>([])

    private init(provider: any StorageProvider, folder: ItemPath, destinationRoot: ItemPath) {
        self.provider = provider
        self.folder = folder
        self.destinationRoot = destinationRoot
    }

    /// Refuses a backup directory that overlaps the destination's tree or the source's: its items
    /// would be synced or deleted with the rest. Overlap is judged as ``TreeOverlap`` judges two
    /// targets, by where they are (resolved addresses, device and inode, a server that folds
    /// case), not by their spelling: `/Backup/old` is inside the destination `/backup` on a server
    /// that folds case, and a backup directory `/src/old` of a local destination rooted at `/`
    /// is inside a source rooted at `/src`. Refuses a destination that can neither move nor copy on the server.
    ///
    /// - Throws: `ProviderError`: `invalidArgument` for an overlap, `unsupported` for the destination.
    static func check(_ directory: ItemPath, source: TransferEndpoint, destination: TransferEndpoint) async throws {
        func overlaps(_ one: ItemPath, _ other: ItemPath) -> Bool { one.isDescendant(of: other) || other.isDescendant(of: one) }
        let backup = TransferEndpoint(destination.provider, at: directory)
        let inDestination = try await TreeOverlap(source: backup, destination: destination).decide()
        if overlaps(directory, destination.path) || Self.isOverlap(inDestination) {
            throw ProviderError(
                .invalidArgument,
                "the backup directory \(directory) overlaps the destination \(destination.path): choose a folder outside the tree being synced")
        }
        let inSource = try await TreeOverlap(source: backup, destination: source).decide()
        if (source.provider.account == destination.provider.account && overlaps(directory, source.path)) || Self.isOverlap(inSource) {
            throw ProviderError(
                .invalidArgument, "the backup directory \(directory) overlaps the source \(source.path): choose a folder outside both trees")
        }
        let capabilities = destination.provider.capabilities
        guard capabilities.supports(.move) || capabilities.supports(.copy) else {
            throw ProviderError(
                .unsupported, "the destination can neither move nor copy items on the server, so nothing can be kept in a backup directory")
        }
    }

    private static func isOverlap(_ verdict: TreeOverlap.Verdict) -> Bool {
        if case .overlap = verdict { return true }
        return false
    }

    /// Makes this run's folder inside `directory` (with `directory`'s missing parents) on the destination.
    static func make(_ directory: ItemPath, destination: TransferEndpoint, started: Date) async throws -> BackupFolder {
        let provider = destination.provider
        try await TransferRun.ensureFolder(directory, on: provider)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss'Z'"
        let stamp = formatter.string(from: started)
        for attempt in 1...100 {
            let name = attempt == 1 ? stamp : "\(stamp)-\(attempt)"
            do {
                let made = try await provider.createFolder(named: name, in: directory)
                return BackupFolder(provider: provider, folder: made.path, destinationRoot: destination.path)
            } catch let error as ProviderError where error.code == .alreadyExists {
                continue
            }
        }
        throw ProviderError(.conflict, "no new folder could be made in the backup directory \(directory)")
    }

    /// Where the destination's item at `path` goes in the backup.
    func target(of path: ItemPath) -> ItemPath {
        guard let relative = path.relative(to: destinationRoot), !relative.isRoot else {
            // A single file copied onto its own path: kept under its name.
            return (try? folder.appending(path.name)) ?? folder
        }
        return folder.appending(relative)
    }

    /// Moves the destination's item at `path` into the backup; returns whether there was one to move
    /// (an item gone meanwhile is not an error: nothing of it is lost by the job).
    @discardableResult
    func keep(_ path: ItemPath) async throws -> Bool {
        let target = target(of: path)
        try await ensureParent(of: target)
        do {
            if provider.capabilities.supports(.move) {
                _ = try await provider.move(path, to: target, options: TransferOptions(overwrite: false))
            } else {
                _ = try await provider.copy(path, to: target, options: TransferOptions(overwrite: false))
                try await provider.delete(path)
            }
            return true
        } catch let error as ProviderError where error.code == .notFound {
            guard try await provider.itemIfExists(at: path) == nil else { throw error }
            return false
        }
    }

    private func ensureParent(of target: ItemPath) async throws {
        let parent = target.parent
        if parent == folder || made.withLockedValue({ $0.contains(parent) }) { return }
        try await TransferRun.ensureFolder(parent, on: provider)
        made.withLockedValue { _ = $0.insert(parent) }
    }
}
