import Foundation
import ProviderAPI

/// An adapter's handle on the `UploadCheckpoint` of one upload: the store from its services,
/// the destination, the caller's resume key and the adapter's record format.
///
/// The store's failures never reach the upload: a record that cannot be read is no record, one
/// that cannot be kept is not kept (the upload then starts over next time).
///
/// ```swift
/// if let checkpointer = UploadCheckpointer(store: services.uploadCheckpoints, account: account,
///                                           destination: path, options: options, format: "my.session.v1") {
///     switch await checkpointer.load(MySession.self) {
///     case .resumable(let session): ...   // ask the server what it holds of `session`
///     case .stale(let old): ...            // another content's session: drop it on the server
///     case .none: ...
///     }
/// }
/// ```
package struct UploadCheckpointer: Sendable {
    /// What the store holds for the destination.
    package enum Loaded<State: Sendable>: Sendable {
        /// Nothing usable.
        case none
        /// A session recorded for this content, in this format.
        case resumable(State)
        /// A session of another content (another resume key) in this format: the adapter drops it
        /// on the server; the record is already forgotten.
        case stale(State)
    }

    /// The store.
    package let store: any UploadCheckpoints
    /// The account, as records name it.
    package let account: String
    /// The destination file's path.
    package let destination: String
    /// The caller's fingerprint of the content.
    package let resumeKey: String
    /// The adapter's name for its record format.
    package let format: String

    /// A handle for an upload to `destination`, or `nil` when there is no store or the upload has
    /// no `UploadOptions.resumeKey`.
    package init?(
        store: (any UploadCheckpoints)?, account: ProviderAccount, destination: ItemPath, options: UploadOptions, format: String
    ) {
        guard let store, let key = options.resumeKey, !key.isEmpty else { return nil }
        self.store = store
        self.account = account.description
        self.destination = destination.description
        self.resumeKey = key
        self.format = format
    }

    /// The recorded session of this destination.
    package func load<State: Decodable & Sendable>(_ type: State.Type) async -> Loaded<State> {
        guard let record = try? await store.checkpoint(account: account, destination: destination) else { return .none }
        guard record.format == format, let state = try? JSONDecoder().decode(State.self, from: record.state) else {
            await remove()
            return .none
        }
        if record.resumeKey == resumeKey { return .resumable(state) }
        await remove()
        return .stale(state)
    }

    /// Records `state` as this upload's session.
    package func save<State: Encodable>(_ state: State) async {
        guard let data = try? JSONEncoder().encode(state) else { return }
        try? await store.save(
            UploadCheckpoint(account: account, destination: destination, resumeKey: resumeKey, format: format, state: data))
    }

    /// Forgets the session (the upload finished, or its session cannot be resumed).
    package func remove() async {
        try? await store.removeCheckpoint(account: account, destination: destination)
    }
}
