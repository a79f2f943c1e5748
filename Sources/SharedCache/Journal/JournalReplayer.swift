import Foundation
import GRDB
import ProviderAPI
import ProviderKit

/// What the replay of one entry came to.
enum ReplayOutcome: Sendable {
    /// Done on the server (now or by an earlier attempt); the item as the server has it (nil after a delete).
    case done(Item?)
    /// Not done: the server differs from the recorded copy.
    case conflict(JournalConflict)
    /// Not done (or not known to be done): kept for the next replay.
    case failed(ProviderError)
}

/// What the check before acting found.
enum ReplayDecision: Sendable {
    case alreadyDone(Item?)
    case act(server: Item?)
    case conflict(JournalConflict.Reason, ItemPath, server: Item?)
}

extension SyncJournal {
    /// Replays the journal on `provider` (the provider behind the cache), in order.
    ///
    /// Each entry is checked against the server first (see ``SyncJournal``); a replayed entry is
    /// removed and the cached view takes the server's answer. An entry in conflict, or one that
    /// fails, holds back the later entries whose paths overlap its own; the others go on. A
    /// network failure stops the replay (``JournalReplayReport/stoppedOffline``) with the rest kept.
    package func replay(on provider: any StorageProvider) async throws -> JournalReplayReport {
        try await replayGate.run(directory: store.directory) {
            try await removeUnusedContent()
            var report = JournalReplayReport()
            var blocked: [ItemPath] = []
            let key = accountKey
            let rows = try await store.read { db in try JournalSchema.rows(account: key, in: db) }
            for row in rows {
                let entry = row.entry
                if entry.state == .conflict {
                    blocked += entry.action.paths
                    continue
                }
                if Self.overlaps(entry.action.paths, blocked) {
                    report.heldBack.append(entry.id)
                    blocked += entry.action.paths
                    continue
                }
                switch try await replayOne(entry.id, on: provider) {
                case .done: report.replayed.append(entry.id)
                case .conflict(let conflict):
                    report.conflicts.append(conflict)
                    blocked += entry.action.paths
                case .failed(let error):
                    report.failed[entry.id] = error
                    blocked += entry.action.paths
                    if CachedProvider.isOffline(error) { report.stoppedOffline = true }
                }
                if report.stoppedOffline { break }
            }
            report.remaining = try await count()
            return report
        }
    }

    /// Resolves entry `id` (in conflict, or failed) as `resolution` says, on `provider` (the provider behind the cache).
    ///
    /// - Returns: what became of the entry: ``JournalEntry/State`` `nil` when it is gone from the
    ///   journal (done or dropped), else its state after the resolution (a retry may find the conflict again).
    /// - Throws: `ProviderError.Code.notFound` when the journal has no entry `id`;
    ///   `ProviderError.Code.invalidArgument` when `keepMine` has nothing to keep (a move whose source
    ///   is gone); the provider's error when acting fails (the entry is then kept).
    @discardableResult
    package func resolve(_ id: Int64, _ resolution: JournalResolution, on provider: any StorageProvider) async throws -> JournalEntry.State? {
        try await replayGate.run(directory: store.directory) {
            guard let entry = try await entry(id) else { throw ProviderError(.notFound, "no journal entry \(id)") }
            let state: JournalEntry.State?
            switch resolution {
            case .retry:
                switch try await replayOne(id, on: provider) {
                case .done: state = nil
                case .conflict: state = .conflict
                case .failed(let error): throw error
                }
            case .drop:
                try await finish(entry, server: nil, view: .forget)
                state = nil
            case .takeTheirs:
                var theirs: [ItemPath: Item?] = [:]
                for path in entry.action.paths { theirs[path] = try await Self.fresh(path, on: provider) }
                try await finish(entry, server: nil, view: .theirs(theirs))
                state = nil
            case .keepMine:
                let item = try await keepMine(entry, on: provider)
                // Mine may be under a free name: every other path of the action shows what the server
                // holds there now (theirs, beside mine), not nothing until the next online read.
                var theirs: [ItemPath: Item?] = [:]
                for path in entry.action.paths where !(item.map { Self.same($0.path, path) } ?? false) {
                    theirs[path] = try await Self.fresh(path, on: provider)
                }
                try await finish(entry, server: item, view: .replayed, alsoShow: theirs)
                state = nil
            }
            publish(.resolved(id: id, resolution))
            return state
        }
    }

    // MARK: - One entry

    /// Marks entry `id` as being replayed, checks the server, acts, and records the outcome.
    func replayOne(_ id: Int64, on provider: any StorageProvider) async throws -> ReplayOutcome {
        let marked = try await store.write { db -> JournalEntry? in
            guard var row = try JournalSchema.row(id: id, in: db) else { return nil }
            row.entry.attempts += 1
            let before = row.entry
            row.entry.state = .replaying
            try JournalSchema.update(row, in: db)
            return before
        }
        guard let entry = marked else { throw ProviderError(.notFound, "no journal entry \(id)") }
        // Anything but a fresh entry may have reached the server already: look before acting again.
        let maybeSent = entry.state != .pending
        let outcome: ReplayOutcome
        do {
            switch try await check(entry, maybeSent: maybeSent, on: provider) {
            case .alreadyDone(let item): outcome = .done(item)
            case .conflict(let reason, let path, let server): outcome = .conflict(conflict(entry, reason, path, server))
            case .act(let server): outcome = try await act(entry, server: server, on: provider)
            }
        } catch {
            outcome = .failed(ProviderError.wrap(error))
        }
        switch outcome {
        case .done(let item):
            try await finish(entry, server: item, view: .replayed)
            publish(.replayed(entry, item))
        case .conflict(let conflict):
            var row = JournalSchema.Row(entry: entry, content: nil)
            row.entry.state = .conflict
            row.entry.conflict = conflict
            try await updateKeepingContent(row)
            publish(.conflict(conflict))
        case .failed(let error):
            var row = JournalSchema.Row(entry: entry, content: nil)
            // A failure during the request may have reached the server: the next attempt looks first.
            row.entry.state = .failed
            row.entry.lastError = error
            try await updateKeepingContent(row)
            publish(.failed(row.entry, error))
        }
        return outcome
    }

    /// Rewrites an entry's state, conflict and error (its content file stays).
    private func updateKeepingContent(_ row: JournalSchema.Row) async throws {
        try await store.write { db in
            guard var stored = try JournalSchema.row(id: row.entry.id, in: db) else { return }
            stored.entry.state = row.entry.state
            stored.entry.conflict = row.entry.conflict
            stored.entry.lastError = row.entry.lastError
            stored.entry.attempts = row.entry.attempts
            try JournalSchema.update(stored, in: db)
        }
    }

    private func conflict(_ entry: JournalEntry, _ reason: JournalConflict.Reason, _ path: ItemPath, _ server: Item?) -> JournalConflict {
        JournalConflict(
            entryID: entry.id, action: entry.action, actionTime: entry.recordedAt, reason: reason, path: path,
            recorded: Self.same(path, entry.action.path) && entry.action.source != nil ? entry.recordedDestination : entry.recorded,
            mineContent: entry.action.content, server: server)
    }

    /// What the server holds compared with the recorded copies: already done, to do, or a conflict.
    func check(_ entry: JournalEntry, maybeSent: Bool, on provider: any StorageProvider) async throws -> ReplayDecision {
        switch entry.action {
        case .createFolder(let path):
            if let server = try await Self.fresh(path, on: provider) {
                return server.kind == .folder ? .alreadyDone(server) : .conflict(.targetExists, path, server: server)
            }
            if let gone = try await missingParent(of: path, on: provider) { return .conflict(.targetFolderGone, gone, server: nil) }
            return .act(server: nil)

        case .upload(let path, let content):
            let server = try await Self.fresh(path, on: provider)
            if let server {
                if server.kind == .folder { return .conflict(.targetExists, path, server: server) }
                if try await contentMatches(server, content, entry: entry.id, deep: maybeSent, on: provider) { return .alreadyDone(server) }
                guard let recorded = entry.recorded else { return .conflict(.targetExists, path, server: server) }
                if !Self.sameVersion(recorded, server) { return .conflict(.changedOnServer, path, server: server) }
                return .act(server: server)
            }
            if let gone = try await missingParent(of: path, on: provider) { return .conflict(.targetFolderGone, gone, server: nil) }
            // Deleted on the server while changed here: uploading it again loses nothing.
            return .act(server: nil)

        case .delete(let path):
            guard let server = try await Self.fresh(path, on: provider) else { return .alreadyDone(nil) }
            if let recorded = entry.recorded, !Self.sameVersion(recorded, server) { return .conflict(.changedOnServer, path, server: server) }
            return .act(server: server)

        case .move(let from, let to), .copy(let from, let to):
            let isMove = entry.action.kind == .move
            let source = try await Self.fresh(from, on: provider)
            let target = try await Self.fresh(to, on: provider)
            if maybeSent, let target, Self.isResult(target, of: entry, source: source, isMove: isMove) { return .alreadyDone(target) }
            guard let source else { return .conflict(.deletedOnServer, from, server: nil) }
            if let recorded = entry.recorded, recorded.kind != source.kind { return .conflict(.changedOnServer, from, server: source) }
            // A file changed on the server since the move was recorded is a conflict, as for a delete
            // or an upload: the user renamed the version they saw, not the server's new one. (A
            // folder's version may change with what is below it, which moves along: not a conflict.)
            if let recorded = entry.recorded, recorded.kind == .file, recorded.properties[CacheMarks.pending] == nil,
                !Self.sameVersion(recorded, source)
            {
                return .conflict(.changedOnServer, from, server: source)
            }
            if let target {
                guard let before = entry.recordedDestination else { return .conflict(.targetExists, to, server: target) }
                if !Self.sameVersion(before, target) { return .conflict(.changedOnServer, to, server: target) }
            } else if let gone = try await missingParent(of: to, on: provider) {
                return .conflict(.targetFolderGone, gone, server: nil)
            }
            return .act(server: target)
        }
    }

    /// Whether `target` is what an earlier attempt of this move or copy left: for a move, the source
    /// gone and the same item (id, else etag, else size) at the destination; for a copy, the same kind
    /// and size as the source where the destination was free or held another version.
    static func isResult(_ target: Item, of entry: JournalEntry, source: Item?, isMove: Bool) -> Bool {
        guard let recorded = entry.recorded, target.kind == recorded.kind else { return false }
        if isMove {
            guard source == nil else { return false }
            if !recorded.id.isEmpty, !target.id.isEmpty, recorded.properties[CacheMarks.pending] == nil { return recorded.id == target.id }
            if let a = recorded.etag, let b = target.etag, ETag.weaklyEqual(a, b) { return true }
            return target.kind == .folder || recorded.size == target.size
        }
        guard let source, source.kind == target.kind else { return false }
        if let before = entry.recordedDestination, sameVersion(before, target) { return false }
        return target.kind == .folder || source.size == target.size
    }

    /// Does what `entry` says; `server` is the item at its path as just checked.
    private func act(_ entry: JournalEntry, server: Item?, on provider: any StorageProvider) async throws -> ReplayOutcome {
        do {
            switch entry.action {
            case .createFolder(let path):
                return .done(try await provider.createFolder(named: path.name, in: path.parent))
            case .upload(let path, let content):
                return .done(try await upload(entry.id, content, to: path, replacing: server, on: provider))
            case .delete(let path):
                try await provider.delete(path)
                return .done(nil)
            case .move(let from, let to):
                return .done(try await provider.move(from, to: to, options: TransferOptions(overwrite: server != nil)))
            case .copy(let from, let to):
                return .done(try await provider.copy(from, to: to, options: TransferOptions(overwrite: server != nil)))
            }
        } catch let error as ProviderError where [.preconditionFailed, .alreadyExists, .notFound, .conflict].contains(error.code) {
            // The server changed between the check and the act, or a retry inside the provider met what its
            // own first attempt did: look again before calling it a conflict.
            let path = entry.action.path
            let now = try? await Self.fresh(path, on: provider)
            if let now = now ?? nil {
                if case .upload(_, let content) = entry.action,
                    (try? await contentMatches(now, content, entry: entry.id, deep: true, on: provider)) == true
                {
                    return .done(now)
                }
                if let source = entry.action.source, entry.action.kind == .move {
                    // Only a source known to be gone (not one that could not be asked for) makes the move done.
                    let stillThere: Item?
                    do { stillThere = try await Self.fresh(source, on: provider) } catch { stillThere = now }
                    if Self.isResult(now, of: entry, source: stillThere, isMove: true) { return .done(now) }
                }
            }
            if error.code == .notFound, let source = entry.action.source { return .conflict(conflict(entry, .deletedOnServer, source, nil)) }
            if error.code == .notFound || (error.code == .conflict && now == nil) {
                return .conflict(conflict(entry, .targetFolderGone, path.parent, nil))
            }
            if entry.action.kind == .delete, now == nil { return .done(nil) }
            return .conflict(conflict(entry, server == nil ? .targetExists : .changedOnServer, path, now ?? nil))
        }
    }

    /// Sends an upload's kept bytes; `If-Match` the checked etag where the provider declares preconditions.
    func upload(_ id: Int64, _ content: JournalContent, to path: ItemPath, replacing server: Item?, on provider: any StorageProvider) async throws -> Item {
        guard let file = try await contentFile(of: id) else { throw ProviderError(.integrity, "the journal lost the bytes of entry \(id)") }
        let honoursIfMatch = provider.capabilities.features.isSuperset(of: [.preconditions, .etags])
        var options = UploadOptions(conflict: server == nil ? .fail : .overwrite, modified: content.modified, mimeType: content.mimeType)
        // A server compares If-Match strongly: a weak tag (Apache's for a file changed within the
        // last second) would never match, so it is checked by the comparison above alone.
        if honoursIfMatch, let etag = server?.etag, !ETag.isWeak(etag) { options.ifMatch = etag }
        return try await provider.upload(try FileSource(url: file), to: path.parent, name: path.name, options: options)
    }

    /// Whether the server's file holds the upload's bytes: by a digest the server declares, else
    /// (when `deep`, after an attempt that may have reached it) by reading it back.
    func contentMatches(_ server: Item, _ content: JournalContent, entry id: Int64, deep: Bool, on provider: any StorageProvider) async throws -> Bool {
        guard server.kind == .file else { return false }
        if let size = server.size, size != content.size { return false }
        if let declared = server.digests[.sha256] { return declared.lowercased() == content.sha256 }
        if let file = try await contentFile(of: id) {
            for (algorithm, declared) in server.digests.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                guard var digester = Digester(algorithm) else { continue }
                try PosixFile.open(file.path, flags: 0).readChunks(of: 1 << 20) { digester.update($0) }
                return digester.finalize() == declared.lowercased()
            }
        }
        guard deep, server.size != nil else { return false }
        guard let sink = DigestSink(.sha256) else { return false }
        _ = try await provider.download(server.path, to: sink, options: DownloadOptions())
        let (size, sha256) = (await sink.size, await sink.digest)
        return size == content.size && sha256 == content.sha256
    }

    /// The nearest ancestor of `path` missing on the server, or nil when its folder is there.
    func missingParent(of path: ItemPath, on provider: any StorageProvider) async throws -> ItemPath? {
        var folder = path.parent
        var missing: ItemPath?
        while !folder.isRoot {
            guard let item = try await Self.fresh(folder, on: provider), item.kind == .folder else {
                missing = folder
                folder = folder.parent
                continue
            }
            break
        }
        return missing
    }

    /// The server's item at `path`, nil when there is none.
    static func fresh(_ path: ItemPath, on provider: any StorageProvider) async throws -> Item? {
        do { return try await provider.item(at: path) } catch let error as ProviderError where error.code == .notFound { return nil }
    }

    /// Whether the server's item is the version recorded: same kind, and the same etag where both
    /// have one, else the same size and modified time.
    static func sameVersion(_ recorded: Item, _ server: Item) -> Bool {
        guard recorded.kind == server.kind else { return false }
        if let a = recorded.etag, let b = server.etag { return ETag.weaklyEqual(a, b) }
        if recorded.kind == .folder { return true }
        guard recorded.size == server.size else { return false }
        guard let a = recorded.modified, let b = server.modified else { return true }
        return abs(a.timeIntervalSince(b)) < 1
    }

    static func same(_ a: ItemPath, _ b: ItemPath) -> Bool { PathKey(a) == PathKey(b) }

    /// Whether any of `paths` is at, above or below any of `blocked`.
    static func overlaps(_ paths: [ItemPath], _ blocked: [ItemPath]) -> Bool {
        func within(_ a: ItemPath, _ b: ItemPath) -> Bool {
            same(a, b) || b.isRoot || a.storageKey.utf8.starts(with: (b.storageKey + "/").utf8)
        }
        return paths.contains { path in blocked.contains { within(path, $0) || within($0, path) } }
    }
}
