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

/// One open blob store's folder of temporary files, `blobs/tmp/<id>/`, owned
/// through an exclusive lock on `blobs/tmp/<id>.lock` for as long as the store lives.
///
/// A store that opens the cache deletes only the folders whose lock it can
/// take: their owner died (the kernel drops a dead process's locks, SIGKILL
/// included), so their files are torn writes. A live writer's files are never touched.
final class BlobTempArea: Sendable {
    let folder: URL
    private let lockFile: PosixFile

    init(root: URL) throws {
        try PrivateFiles.makeFolder(root)
        let id = UUID().uuidString.lowercased()
        lockFile = try PosixFile.open(root.appendingPathComponent(id + ".lock").path, flags: O_RDWR | O_CREAT, mode: 0o600)
        guard lockFile.lock(wait: false) else { throw ProviderError.posix(EAGAIN, action: "lock", path: lockFile.path) }
        folder = root.appendingPathComponent(id, isDirectory: true)
        try PrivateFiles.makeFolder(folder)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
        PosixFile.remove(lockFile.path)
        lockFile.closeNow()
    }

    /// A fresh temporary file name in this area.
    func newFile() -> URL {
        folder.appendingPathComponent(UUID().uuidString.lowercased() + ".tmp")
    }

    /// Deletes the temporary folders of dead stores under `root`, except `self`'s; returns how many files went.
    @discardableResult
    func removeStrays() -> Int {
        let fileManager = FileManager.default
        let root = folder.deletingLastPathComponent()
        guard let names = try? fileManager.contentsOfDirectory(atPath: root.path) else { return 0 }
        let nameSet = Set(names.map { PathKey($0) })
        let mine = folder.lastPathComponent
        var removed = 0
        for name in names where name.hasSuffix(".lock") && name != mine + ".lock" {
            let id = String(name.dropLast(5))
            guard let other = try? PosixFile.open(root.appendingPathComponent(name).path, flags: O_RDWR) else { continue }
            guard other.lock(wait: false) else { continue }  // a live store
            removed += removeFolder(root.appendingPathComponent(id, isDirectory: true))
            PosixFile.remove(other.path)
            other.closeNow()
        }
        // Folders whose lock file is gone: an earlier cleanup stopped half-way.
        for name in names where !name.hasSuffix(".lock") && name != mine && !nameSet.contains(PathKey(name + ".lock")) {
            guard !fileManager.fileExists(atPath: root.appendingPathComponent(name + ".lock").path) else { continue }
            removed += removeFolder(root.appendingPathComponent(name, isDirectory: true))
        }
        return removed
    }

    private func removeFolder(_ url: URL) -> Int {
        let count = (try? FileManager.default.contentsOfDirectory(atPath: url.path).count) ?? 0
        try? FileManager.default.removeItem(at: url)
        return count
    }
}
