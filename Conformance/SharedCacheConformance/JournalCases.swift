import Foundation
import ProviderAPI
import ProviderConformance
import SharedCache

/// The sync journal in front of the provider: writes made offline are replayed when it is back,
/// and a server-side change in between is a conflict that changes nothing on the server.
///
/// The cases use the journal's explicit offline mode (`OfflineWrites.always` over a cache-only
/// view), so they need no transport and run for every adapter, local ones included.
enum JournalCases {
    static var all: [ConformanceCase] { [replay, conflict, folderGone, search, moveOfChangedFile, keepMineShowsTheirs] }

    /// A cache over the provider, read online once (`folder` listed), and an offline view of it that journals every write.
    private static func rig(_ context: ConformanceContext, _ name: String) async throws -> (online: CachedProvider, offline: CachedProvider) {
        let directory = context.localURL(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try CacheStore(directory: directory)
        let online = CachedProvider(wrapping: context.provider, store: store, policy: .networkFirst, offlineWrites: .whenUnreachable)
        _ = try await online.listAll(context.folder)
        let offline = CachedProvider(wrapping: context.provider, store: store, policy: .cacheOnly, offlineWrites: .always)
        return (online, offline)
    }

    static let replay = ConformanceCase(
        "journal.replay", requires: [.move],
        summary: "Offline uploads (new and replacing), a rename, a delete and a new folder are journaled, shown as pending, and replayed in order once online"
    ) { context in
        try await context.upload(text: "first version\n", as: "kept.txt")
        try await context.upload(text: "to be renamed\n", as: "old-name.txt")
        try await context.upload(text: "to be deleted\n", as: "gone.txt")
        let (online, offline) = try await rig(context, "journal-replay-cache")

        let mine = Array("second version, written offline\n".utf8)
        let fresh = Array("new offline file\n".utf8)
        let inner = Array("inside a folder made offline\n".utf8)
        _ = try await offline.upload(DataSource(bytes: mine), to: context.folder, name: "kept.txt", options: UploadOptions())
        _ = try await offline.upload(DataSource(bytes: fresh), to: context.folder, name: "new.txt", options: UploadOptions())
        _ = try await offline.move(try context.path("old-name.txt"), to: try context.path("new-name.txt"), options: TransferOptions())
        try await offline.delete(try context.path("gone.txt"))
        let made = try await offline.createFolder(named: "made-offline", in: context.folder)
        _ = try await offline.upload(DataSource(bytes: inner), to: made.path, name: "inner.txt", options: UploadOptions())

        // The cached view shows the writes, pending; the server has none of them yet.
        let view = try await offline.listAll(context.folder)
        try context.expect(
            view.map(\.name).sorted() == ["kept.txt", "made-offline", "new-name.txt", "new.txt"],
            "offline, the cached view lists \(view.map(\.name).sorted())")
        let pending = view.filter { $0.properties[CacheMarks.pending] == "true" }.map(\.name).sorted()
        try context.expect(pending == ["kept.txt", "made-offline", "new-name.txt", "new.txt"], "pending items in the view: \(pending)")
        let entries = try await online.journal.entries()
        try context.expect(entries.count == 6, "the journal holds \(entries.count) entries: \(entries.map(\.action.summary))")
        let server = try await context.children().map(\.name).sorted()
        try context.expect(server == ["gone.txt", "kept.txt", "old-name.txt"], "before the replay, the server lists \(server)")

        let report = try await online.replayJournal()
        try context.expect(
            report.replayed.count == 6 && report.conflicts.isEmpty && report.failed.isEmpty,
            "the replay: \(report.replayed.count) replayed, conflicts \(report.conflicts.map(\.reason)), failed \(report.failed)")
        try await context.expectContent(try context.path("kept.txt"), mine, "after the replay")
        try await context.expectContent(try context.path("new.txt"), fresh, "after the replay")
        try await context.expectContent(try context.path("new-name.txt"), Array("to be renamed\n".utf8), "after the replay")
        try await context.expectContent(try context.path("made-offline").appending("inner.txt"), inner, "after the replay")
        try await context.expectMissing(try context.path("old-name.txt"), "after the rename was replayed")
        try await context.expectMissing(try context.path("gone.txt"), "after the delete was replayed")
        try context.expect(try await online.journal.count() == 0, "entries are left in the journal after a clean replay")
        let after = try await online.item(at: try context.path("new.txt"))
        try context.expect(after.properties[CacheMarks.pending] == nil, "the replayed item is still marked pending")
    }

    static let conflict = ConformanceCase(
        "journal.conflict",
        summary: "A file changed on the server after it was changed or deleted offline is a conflict: the replay changes nothing, keep-mine writes a new name"
    ) { context in
        let original = try await context.upload(text: "v1\n", as: "shared.txt")
        try await context.upload(text: "will be deleted offline\n", as: "doomed.txt")
        let (online, offline) = try await rig(context, "journal-conflict-cache")

        let mine = Array("mine, written offline\n".utf8)
        _ = try await offline.upload(DataSource(bytes: mine), to: context.folder, name: "shared.txt", options: UploadOptions())
        try await offline.delete(try context.path("doomed.txt"))
        // Someone else changes both on the server meanwhile (other sizes, so even a server without etags shows it).
        let theirs = Array("theirs, changed on the server in between\n".utf8)
        let theirsDoomed = Array("changed on the server, must not be deleted\n".utf8)
        let changed = try await context.upload(theirs, as: "shared.txt")
        try await context.upload(theirsDoomed, as: "doomed.txt")

        let report = try await online.replayJournal()
        try context.expect(report.replayed.isEmpty, "the replay acted on \(report.replayed.count) entries in conflict")
        let reasons = report.conflicts.map(\.reason)
        try context.expect(reasons == [.changedOnServer, .changedOnServer], "the conflicts: \(reasons)")
        try await context.expectContent(try context.path("shared.txt"), theirs, "after a replay in conflict")
        try await context.expectContent(try context.path("doomed.txt"), theirsDoomed, "after a replay in conflict")
        let upload = try context.unwrap(report.conflicts.first { $0.action.kind == .upload }, "the upload's conflict")
        try context.expect(upload.recorded?.size == original.size, "the conflict's recorded copy has size \(String(describing: upload.recorded?.size))")
        try context.expect(upload.server?.size == changed.size ?? Int64(theirs.count), "the conflict's server copy has size \(String(describing: upload.server?.size))")
        try context.expect(upload.mineContent?.size == Int64(mine.count), "the conflict's own content has size \(String(describing: upload.mineContent?.size))")
        try context.expect(upload.action.kind == .upload && upload.actionTime <= Date(), "the conflict's action and time")

        // A second replay leaves entries in conflict alone.
        let again = try await online.replayJournal()
        try context.expect(again.replayed.isEmpty && again.remaining == 2, "a second replay: \(again.replayed.count) replayed, \(again.remaining) left")

        try await online.resolveJournal(upload.entryID, .keepMine)
        try await context.expectContent(try context.path("shared.txt"), theirs, "after keep-mine")
        try await context.expectContent(try context.path("shared (1).txt"), mine, "keep-mine's new name")
        let delete = try context.unwrap(report.conflicts.first { $0.action.kind == .delete }, "the delete's conflict")
        try await online.resolveJournal(delete.entryID, .takeTheirs)
        try await context.expectContent(try context.path("doomed.txt"), theirsDoomed, "after take-theirs")
        try context.expect(try await online.journal.count() == 0, "entries left after resolving every conflict")
    }

    static let folderGone = ConformanceCase(
        "journal.targetFolderGone",
        summary: "An offline upload into a folder deleted on the server meanwhile is a conflict, never a silent loss; keep-mine makes the folder again"
    ) { context in
        let folder = try await context.makeFolder("vanishing")
        let (online, offline) = try await rig(context, "journal-folder-cache")
        _ = try await online.listAll(folder.path)
        let mine = Array("written into a folder that is deleted on the server\n".utf8)
        _ = try await offline.upload(DataSource(bytes: mine), to: folder.path, name: "orphan.txt", options: UploadOptions())
        try await context.provider.delete(folder.path)

        let report = try await online.replayJournal()
        let conflict = try context.unwrap(report.conflicts.first, "a conflict (report: \(report.replayed.count) replayed, failed \(report.failed))")
        try context.expect(conflict.reason == .targetFolderGone && conflict.path == folder.path, "the conflict: \(conflict.reason) at \(conflict.path)")
        try await context.expectMissing(folder.path, "after the replay in conflict")
        try context.expect(try await online.journal.count() == 1, "the entry is kept")

        try await online.resolveJournal(conflict.entryID, .keepMine)
        try await context.expectContent(try folder.path.appending("orphan.txt"), mine, "after keep-mine")
    }
}

extension JournalCases {
    static let search = ConformanceCase(
        "journal.search", requires: [.search],
        summary: "Before the replay, the online search finds a file uploaded offline (marked pending) and not one deleted offline"
    ) { context in
        try await context.upload(text: "deleted offline\n", as: "jsearch-gone.txt")
        let (online, offline) = try await rig(context, "journal-search-cache")
        _ = try await offline.upload(DataSource(bytes: Array("offline\n".utf8)), to: context.folder, name: "jsearch-new.txt", options: UploadOptions())
        try await offline.delete(try context.path("jsearch-gone.txt"))

        let query = Query.and([.under(context.folder), .nameContains("jsearch")])
        let found = try await online.search(query, page: PageRequest())
        let names = found.items.map(\.name).sorted()
        try context.expect(names == ["jsearch-new.txt"], "the online search before the replay found \(names)")
        try context.expect(
            found.items.first?.properties[CacheMarks.pending] == "true", "the file uploaded offline is found but not marked pending")
        let report = try await online.replayJournal()
        try context.expect(report.replayed.count == 2, "the replay: \(report.replayed.count) replayed")
    }
}

extension JournalCases {
    static let moveOfChangedFile = ConformanceCase(
        "journal.moveOfChangedFile", requires: [.move],
        summary: "A file renamed offline and changed on the server meanwhile is a conflict, as a delete or an upload is: the replay renames nothing; keep-mine renames the server's version, take-theirs leaves it"
    ) { context in
        try await context.upload(text: "v1\n", as: "renamed.txt")
        try await context.upload(text: "v1 as well\n", as: "left.txt")
        let (online, offline) = try await rig(context, "journal-move-cache")
        _ = try await offline.move(try context.path("renamed.txt"), to: try context.path("new-name.txt"), options: TransferOptions())
        _ = try await offline.move(try context.path("left.txt"), to: try context.path("other-name.txt"), options: TransferOptions())
        // Someone else rewrites both on the server meanwhile (other sizes, so even a server without etags shows it).
        let theirs = Array("theirs, rewritten on the server in between\n".utf8)
        let theirsLeft = Array("also rewritten on the server, longer than before\n".utf8)
        try await context.upload(theirs, as: "renamed.txt")
        try await context.upload(theirsLeft, as: "left.txt")

        let report = try await online.replayJournal()
        try context.expect(report.replayed.isEmpty, "the replay renamed \(report.replayed.count) file(s) changed on the server")
        let found = report.conflicts.map { "\($0.action.kind) \($0.reason)" }
        try context.expect(found == ["move changedOnServer", "move changedOnServer"], "the conflicts: \(found) (failed \(report.failed))")
        try await context.expectContent(try context.path("renamed.txt"), theirs, "after a replay in conflict")
        try await context.expectMissing(try context.path("new-name.txt"), "after a replay in conflict")
        try await context.expectContent(try context.path("left.txt"), theirsLeft, "after a replay in conflict")

        let renamed = try context.unwrap(report.conflicts.first { $0.action.source?.name == "renamed.txt" }, "the conflict of renamed.txt")
        try context.expect(renamed.server?.size == Int64(theirs.count), "the conflict's server copy has size \(String(describing: renamed.server?.size))")
        try await online.resolveJournal(renamed.entryID, .keepMine)
        try await context.expectContent(try context.path("new-name.txt"), theirs, "after keep-mine: the server's version under the new name")
        try await context.expectMissing(try context.path("renamed.txt"), "after keep-mine")
        let left = try context.unwrap(report.conflicts.first { $0.action.source?.name == "left.txt" }, "the conflict of left.txt")
        try await online.resolveJournal(left.entryID, .takeTheirs)
        try await context.expectContent(try context.path("left.txt"), theirsLeft, "after take-theirs")
        try await context.expectMissing(try context.path("other-name.txt"), "after take-theirs")

        let view = try await offline.listAll(context.folder).map { "\($0.name) \($0.size ?? -1)" }.sorted()
        let wanted = ["left.txt \(theirsLeft.count)", "new-name.txt \(theirs.count)"]
        try context.expect(view == wanted, "offline, the cached view lists \(view), not \(wanted)")
        try context.expect(try await online.journal.count() == 0, "entries left after resolving every conflict")
    }

    static let keepMineShowsTheirs = ConformanceCase(
        "journal.keepMineShowsTheirs",
        summary: "After keep-mine of an upload in conflict, the offline listing shows the server's version beside the kept one, never only mine"
    ) { context in
        try await context.upload(text: "v1\n", as: "both.txt")
        let (online, offline) = try await rig(context, "journal-keep-cache")
        let mine = Array("mine, written offline\n".utf8)
        _ = try await offline.upload(DataSource(bytes: mine), to: context.folder, name: "both.txt", options: UploadOptions())
        let theirs = Array("theirs, changed on the server in between, longer\n".utf8)
        try await context.upload(theirs, as: "both.txt")

        let report = try await online.replayJournal()
        let conflict = try context.unwrap(report.conflicts.first, "a conflict (report: \(report.replayed.count) replayed, failed \(report.failed))")
        try await online.resolveJournal(conflict.entryID, .keepMine)
        try await context.expectContent(try context.path("both.txt"), theirs, "after keep-mine")
        try await context.expectContent(try context.path("both (1).txt"), mine, "keep-mine's new name")

        let view = try await offline.listAll(context.folder)
        let listed = view.map { "\($0.name) \($0.size ?? -1)" }.sorted()
        let wanted = ["both (1).txt \(mine.count)", "both.txt \(theirs.count)"]
        try context.expect(listed == wanted, "offline after keep-mine, the cached view lists \(listed), not \(wanted)")
        let pending = view.filter { $0.properties[CacheMarks.pending] == "true" }.map(\.name)
        try context.expect(pending.isEmpty, "still marked pending after keep-mine: \(pending)")
    }
}

extension ConformanceContext {
    /// `value`, or a failure saying what was missing.
    func unwrap<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T {
        guard let value else { throw ConformanceFailure("missing \(what())") }
        return value
    }
}
