import Foundation
import ProviderAPI
import Testing
import TransferEngine

@testable import SharedCache

/// Apache gives a file changed within the last second a weak etag, and the same tag strong a
/// second later: every "is this still the version I saw" must see one version there.
@Suite("a weak etag turning strong is the same version")
struct WeakETagVersionTests {
    @Test("the journal's replay check sees Apache's weak and strong tags of one file as one version, another tag as a change")
    func journalVersion() throws {
        let path = ItemPath("/a.txt")
        let recorded = Item(path: path, kind: .file, size: 4, etag: #"W/"4-5f1""#)
        #expect(SyncJournal.sameVersion(recorded, Item(path: path, kind: .file, size: 4, etag: #""4-5f1""#)))
        #expect(!SyncJournal.sameVersion(recorded, Item(path: path, kind: .file, size: 4, etag: #""4-5f2""#)))
    }

    @Test("a transfer job's fingerprints match across a weak and a strong tag of one file, not across two tags")
    func fingerprint() {
        let seen = FileFingerprint(size: 4, etag: #"W/"4-5f1""#)
        #expect(seen.sameVersion(as: FileFingerprint(size: 4, etag: #""4-5f1""#)))
        #expect(!seen.sameVersion(as: FileFingerprint(size: 4, etag: #""4-5f2""#)))
    }

    @Test("a digest computed from a file is found again when its etag turned strong")
    func memoizedDigest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weak-etag-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SQLiteTransferJobStore(cache: try CacheStore(directory: folder))
        let account = ProviderAccount(kind: "webdav", server: "http://127.0.0.1:1/dav", user: "ann")
        let path = ItemPath("/a.txt")
        try await store.remember(
            digests: [ComputedDigest(path: path, algorithm: .sha1, digest: "abc", version: FileFingerprint(size: 4, etag: #"W/"4-5f1""#))],
            account: account)
        let later = FileFingerprint(size: 4, etag: #""4-5f1""#)
        #expect(try await store.digest(of: path, account: account, algorithm: .sha1, version: later) == "abc")
        let changed = FileFingerprint(size: 4, etag: #""4-5f2""#)
        #expect(try await store.digest(of: path, account: account, algorithm: .sha1, version: changed) == nil)
    }
}
