import Foundation

/// What an adapter recorded about an upload in progress, so that a later upload of the same
/// content to the same place continues it instead of starting over.
///
/// The record is kept per destination (``account`` and ``destination``): a later upload to that
/// destination finds it, and uses it only when its ``resumeKey`` is the upload's own
/// (`UploadOptions.resumeKey`) and its ``format`` one the adapter reads. ``state`` is the
/// adapter's own encoding of its server session (a batch id, an upload folder, the chunk size
/// and how far the server acknowledged); callers never read it.
public struct UploadCheckpoint: Sendable, Hashable, Codable {
    /// The account uploaded to (``ProviderAccount``'s description).
    public var account: String
    /// The destination file's path on that account.
    public var destination: String
    /// The content's fingerprint, as the caller gave it in `UploadOptions.resumeKey`.
    public var resumeKey: String
    /// The adapter's name for the encoding of ``state`` (`nuxeo.batch.v1`).
    public var format: String
    /// The adapter's record of its upload session.
    public var state: Data
    /// When it was recorded.
    public var savedAt: Date

    /// Creates a record.
    public init(account: String, destination: String, resumeKey: String, format: String, state: Data, savedAt: Date = Date()) {
        self.account = account
        self.destination = destination
        self.resumeKey = resumeKey
        self.format = format
        self.state = state
        self.savedAt = savedAt
    }
}

/// Where adapters keep ``UploadCheckpoint``s between attempts and between processes.
///
/// `SharedCache`'s `CacheStore` is one (in the cache database). An adapter finds the store in its ``ProviderServices``
/// (``ProviderServices/uploadCheckpoints``). A store that fails is treated as empty: the upload
/// goes on without resuming, never fails because of it.
///
/// An adapter that uploads in chunks, given a store and a resume key, saves its session after
/// each chunk the server acknowledged; a later upload with the same key to the same destination
/// asks the server which chunks it holds, checks them against the record (a session the server
/// forgot, or reports differently, is dropped and the upload starts over), sends only the rest
/// (from ``UploadSource/makeStream(from:)`` where the source can) and removes the record once
/// the file is stored.
public protocol UploadCheckpoints: Sendable {
    /// The record kept for `destination` on `account`, if any.
    func checkpoint(account: String, destination: String) async throws -> UploadCheckpoint?
    /// Keeps `checkpoint`, replacing the record of the same account and destination.
    func save(_ checkpoint: UploadCheckpoint) async throws
    /// Forgets the record of `destination` on `account`.
    func removeCheckpoint(account: String, destination: String) async throws
}

/// Keeps ``UploadCheckpoint``s in memory: uploads resume within one process.
package actor InMemoryUploadCheckpoints: UploadCheckpoints {
    private var records: [String: UploadCheckpoint] = [:]

    /// An empty store.
    package init() {}

    /// Every record kept, by account and destination.
    package var all: [UploadCheckpoint] { records.keys.sorted().compactMap { records[$0] } }

    package func checkpoint(account: String, destination: String) -> UploadCheckpoint? {
        records[Self.key(account, destination)]
    }

    package func save(_ checkpoint: UploadCheckpoint) {
        records[Self.key(checkpoint.account, checkpoint.destination)] = checkpoint
    }

    package func removeCheckpoint(account: String, destination: String) {
        records[Self.key(account, destination)] = nil
    }

    private static func key(_ account: String, _ destination: String) -> String { account + "\n" + destination }
}

/// The ``ProviderServices`` key of the ``UploadCheckpoints`` store; none by default.
package enum UploadCheckpointsKey: ProviderServiceKey {
    package static var defaultValue: (any UploadCheckpoints)? { nil }
}

extension ProviderServices {
    /// Where adapters keep the sessions of chunked uploads, so that an upload cut off part way
    /// resumes (see ``UploadCheckpoints``); `nil` (the default) resumes nothing.
    public var uploadCheckpoints: (any UploadCheckpoints)? {
        get { self[UploadCheckpointsKey.self] }
        set { self[UploadCheckpointsKey.self] = newValue }
    }
}
