import NIOConcurrencyHelpers
import ProviderAPI

/// The folders below one root opened lately, kept open for a moment so that a walk of a tree
/// reaches each folder from its parent in one system call, instead of from the root: the walk
/// of a tree 10,000 folders deep costs 10,000 opens, not 50 million steps of path resolution.
///
/// ``folder(at:)`` opens a path as ``LocalFolder/openFolder(at:)`` does (never through a symbolic
/// link, never out of the root), but starts from the nearest folder above it that it opened less
/// than ``lifetime`` ago, if one is among the last ``capacity`` it opened.
///
/// A kept folder is used again only while the folder it was opened in still holds it under its
/// name (one `fstatat`, not following links): a folder renamed away, or swapped for a symbolic
/// link or another folder, is opened anew (and a link is refused). A move of a folder further up
/// is not seen that way: a kept folder below it is reached at its old path for at most
/// ``lifetime``, as it would be by a call that had opened it just before the move. A process that
/// can move a folder out of the root can write where it moved it, so this gives it nothing it did
/// not have. An adapter that moves, replaces or deletes a folder itself calls ``forgetAll()``
/// after it, so its own next call sees the change at once.
///
/// ```swift
/// let folders = LocalFolderCache(root: try LocalFolder.open(path: "/srv/files"))
/// let reports = try folders.folder(at: "/Reports/2026")   // walked from the root
/// let march = try folders.folder(at: "/Reports/2026/03")  // one openat, below the folder above
/// ```
package final class LocalFolderCache: Sendable {
    /// The root every path is below.
    package let root: LocalFolder
    /// How many folders are kept open at most (each holds its descriptor and its parent's).
    package let capacity: Int
    /// How long an opened folder is used again.
    package let lifetime: Duration

    private struct Entry {
        var folder: LocalFolder
        /// The folder it was opened in, and what it was there: used again only while still so.
        var parent: LocalFolder
        var device: UInt64
        var inode: UInt64
        var opened: ContinuousClock.Instant
        /// When it was last used: the least recently used goes first.
        var used: UInt64
    }

    private struct State {
        var entries: [ItemPath: Entry] = [:]
        var uses: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    /// How many levels above a path are looked for in the cache before walking from the root.
    private static let searchedLevels = 64

    /// A cache of folders below `root`: at most `capacity` kept open, each for `lifetime` at most.
    package init(root: LocalFolder, capacity: Int = 64, lifetime: Duration = .seconds(2)) {
        self.root = root
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The folder at `path` below the root, opened from the nearest folder above it that is kept
    /// (else from the root), and kept.
    ///
    /// - Throws: as ``LocalFolder/openFolder(at:)``.
    package func folder(at path: ItemPath) throws -> LocalFolder {
        if path.isRoot { return root }
        let now = ContinuousClock.now
        // The nearest kept folder at or above `path`, within a few levels.
        var base = path
        var start: LocalFolder?
        for _ in 0..<Self.searchedLevels where !base.isRoot {
            if let kept = kept(at: base, now: now) {
                start = kept
                break
            }
            base = base.parent
        }
        if let start, base == path { return start }
        let from = start ?? root
        if start == nil { base = .root }
        // The parent, then the folder in it: what the folder is kept with.
        let parentPath = path.parent
        let parent = parentPath.depth == base.depth ? from : try from.openFolder(at: parentPath.relative(to: base) ?? parentPath)
        let folder = try parent.openFolder(named: path.name)
        let entry = try folder.entry()
        keep(Entry(folder: folder, parent: parent, device: entry.device, inode: entry.inode, opened: now, used: 0), at: path)
        return folder
    }

    /// Lets go of every kept folder: after a move, a replacement or a removal of a folder, which
    /// a kept descriptor would not see.
    package func forgetAll() {
        let released = state.withLockedValue { state -> [ItemPath: Entry] in
            defer { state.entries.removeAll() }
            return state.entries
        }
        _ = released  // closed here, outside the lock
    }

    /// The kept folder at `path`, if it is fresh and still where it was opened; else it is let go.
    private func kept(at path: ItemPath, now: ContinuousClock.Instant) -> LocalFolder? {
        guard let entry = state.withLockedValue({ $0.entries[path] }) else { return nil }
        if now - entry.opened < lifetime, let there = try? entry.parent.entry(named: path.name), there.kind == .folder,
            there.device == entry.device, there.inode == entry.inode
        {
            state.withLockedValue { state in
                state.uses += 1
                state.entries[path]?.used = state.uses
            }
            return entry.folder
        }
        let released = state.withLockedValue { $0.entries.removeValue(forKey: path) }
        _ = released
        return nil
    }

    private func keep(_ entry: Entry, at path: ItemPath) {
        // Descriptors are closed outside the lock, when the evicted entries are released.
        var evicted: [Entry] = []
        state.withLockedValue { state in
            state.uses += 1
            var entry = entry
            entry.used = state.uses
            state.entries[path] = entry
            guard state.entries.count > capacity else { return }
            // Stale entries first, then the least recently used, down to three quarters: one sort
            // per quarter of the capacity opened.
            let now = entry.opened
            let target = max(1, capacity * 3 / 4)
            let ordered = state.entries.sorted { lhs, rhs in
                let (lhsStale, rhsStale) = (now - lhs.value.opened >= lifetime, now - rhs.value.opened >= lifetime)
                if lhsStale != rhsStale { return lhsStale }
                return lhs.value.used < rhs.value.used
            }
            for (key, old) in ordered.prefix(state.entries.count - target) {
                evicted.append(old)
                state.entries[key] = nil
            }
        }
        evicted.removeAll()
    }
}
