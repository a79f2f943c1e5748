import Foundation
import ProviderAPI
import SharedCache
import WebDAVProvider

/// `journal DIR URL USER PASSWORD ROUND LOG`: one round of offline writes through the sync journal
/// against an ownCloud/Nextcloud server, for the parent's SIGKILL test.
///
/// 1. Replays whatever an earlier (killed) round left in the journal; logs `leftovers`.
/// 2. Online, makes `/rROUND` with `base.txt`, `old.txt` and `doomed.txt`, and lists it into the cache; logs `seeded ROUND`.
/// 3. Offline (explicit mode), records six actions, logging `recorded ROUND NAME` after each returns:
///    `new` (upload of a new file), `base` (upload over base.txt), `rename` (old.txt → renamed.txt),
///    `delete` (doomed.txt), `mkdir` (folder dir), `inner` (upload of dir/inner.txt).
/// 4. Replays the journal; logs `replayed ROUND` and exits.
///
/// Contents are ``journalBytes(round:name:)``, so the parent knows what each upload must leave.
func journalRound(directory: URL, url: URL, user: String, password: String, round: Int, log: TortureLog) async throws {
    let store = try CacheStore(directory: directory)
    let base = try await OwnCloudProviderFactory.connect(
        ProviderConfiguration(url: url, credentials: .basic(username: user, password: password), retry: .none), flavor: .nextcloud)
    let online = CachedProvider(wrapping: base, store: store, policy: .networkFirst, offlineWrites: .whenUnreachable)
    let offline = CachedProvider(wrapping: base, store: store, policy: .cacheOnly, offlineWrites: .always)

    let leftovers = try await online.replayJournal()
    guard leftovers.remaining == 0 else { fail("leftovers not replayed: \(leftovers)") }
    log.line("leftovers \(leftovers.replayed.count)")

    let folder = try ItemPath("/r\(round)")
    _ = try await base.createFolder(named: folder.name, in: .root)
    for name in ["base.txt", "old.txt", "doomed.txt"] {
        _ = try await base.upload(DataSource(string: "server \(name) \(round)\n"), to: folder, name: name, options: UploadOptions())
    }
    _ = try await online.listAll(folder)
    log.line("seeded \(round)")

    func upload(_ name: String, in parent: ItemPath, as file: String) async throws {
        _ = try await offline.upload(DataSource(bytes: Array(journalBytes(round: round, name: name))), to: parent, name: file, options: UploadOptions())
        log.line("recorded \(round) \(name)")
    }
    try await upload("new", in: folder, as: "new.txt")
    try await upload("base", in: folder, as: "base.txt")
    _ = try await offline.move(try folder.appending("old.txt"), to: try folder.appending("renamed.txt"), options: TransferOptions())
    log.line("recorded \(round) rename")
    try await offline.delete(try folder.appending("doomed.txt"))
    log.line("recorded \(round) delete")
    _ = try await offline.createFolder(named: "dir", in: folder)
    log.line("recorded \(round) mkdir")
    try await upload("inner", in: try folder.appending("dir"), as: "inner.txt")

    let report = try await online.replayJournal()
    guard report.remaining == 0, report.conflicts.isEmpty, report.failed.isEmpty else { fail("replay left work: \(report)") }
    log.line("replayed \(round) \(report.replayed.count)")
}

/// `journal-replay DIR URL USER PASSWORD LOG`: replays what is left, once, and logs `final N`.
func journalFinal(directory: URL, url: URL, user: String, password: String, log: TortureLog) async throws {
    let store = try CacheStore(directory: directory)
    let base = try await OwnCloudProviderFactory.connect(
        ProviderConfiguration(url: url, credentials: .basic(username: user, password: password), retry: .none), flavor: .nextcloud)
    let online = CachedProvider(wrapping: base, store: store, offlineWrites: .whenUnreachable)
    let report = try await online.replayJournal()
    guard report.remaining == 0 else { fail("final replay left work: \(report)") }
    log.line("final \(report.replayed.count)")
}

/// The bytes an upload of round `round` named `name` sends: 1 KiB to 256 KiB, distinct per round and name.
func journalBytes(round: Int, name: String) -> Data {
    let seed = UInt64(round) << 8 | UInt64(name.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xff })
    return bytes(1024 << (round % 9), seed: seed)
}
