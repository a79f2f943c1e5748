import Foundation
import ProviderKit

extension CacheStore {
    /// Opens (creating) the cache in `directory` as ``init(directory:blobLimits:)`` does, on
    /// swift-nio's blocking thread pool: opening runs GRDB's migrator and lists every blob file
    /// to reconcile the blob store, which must not hold one of Swift's few cooperative threads
    /// (or an event loop) while the disk answers.
    ///
    /// ```swift
    /// let store = try await CacheStore.open(directory: cacheFolder)
    /// ```
    ///
    /// - Throws: what the initializer throws (`ProviderError.Code.io` for a folder or database
    ///   that cannot be opened).
    public static func open(directory: URL, blobLimits: BlobLimits = BlobLimits()) async throws -> CacheStore {
        try await BlockingIO.run { try CacheStore(directory: directory, blobLimits: blobLimits) }
    }
}
