import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit
import SharedCache

/// The process's one ``CacheStore`` per cache folder, opened at first use: the offline cache
/// and what providers verified about their servers share it (two stores on one folder in one
/// process would each tidy the other's blobs at opening).
///
/// The store opens on the blocking thread pool (`CacheStore.open`); tasks that ask for one folder
/// at once wait for the one opening.
enum CommandCache {
    private static let stores = NIOLockedValueBox<[String: Task<CacheStore, any Error>]>([:])

    /// The store of `folder`, made (`0700`) and opened the first time it is asked for.
    static func store(at folder: URL) async throws -> CacheStore {
        let opening = stores.withLockedValue { stores in
            let key = folder.standardizedFileURL.path
            if let opening = stores[key] { return opening }
            let opening = Task {
                // The cache is the user's alone (the store makes its files 0600).
                try await BlockingIO.run {
                    try FileErrorText.doing("make the cache folder") {
                        try FileManager.default.createDirectory(
                            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                    }
                }
                return try await CacheStore.open(directory: folder)
            }
            stores[key] = opening
            return opening
        }
        return try await opening.value
    }
}

/// Keeps what providers verified about their servers (a WebDAV server's behaviour) in the cache
/// folder, so the next `strata` run does not verify again; the store is opened only when a fact
/// is first read or kept.
struct CommandServerFacts: ServerFactStore {
    let folder: URL

    func fact(_ kind: String, server: String, user: String) async throws -> ServerFact? {
        try await CommandCache.store(at: folder).fact(kind, server: server, user: user)
    }

    func remember(_ fact: ServerFact) async throws {
        try await CommandCache.store(at: folder).remember(fact)
    }
}

/// Keeps the sessions of chunked uploads in the cache folder, so that a `copy` or `sync` cut off
/// in the middle of a large file resumes it in the next run; the store is opened only when an
/// upload with a resume key (the transfer engine's) first asks.
struct CommandUploadCheckpoints: UploadCheckpoints {
    let folder: URL

    func checkpoint(account: String, destination: String) async throws -> UploadCheckpoint? {
        try await CommandCache.store(at: folder).checkpoint(account: account, destination: destination)
    }

    func save(_ checkpoint: UploadCheckpoint) async throws {
        try await CommandCache.store(at: folder).save(checkpoint)
    }

    func removeCheckpoint(account: String, destination: String) async throws {
        try await CommandCache.store(at: folder).removeCheckpoint(account: account, destination: destination)
    }
}
