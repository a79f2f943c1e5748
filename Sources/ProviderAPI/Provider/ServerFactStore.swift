import Foundation

/// Something a provider learnt about a server by trying it (what a WebDAV server does with
/// preconditions or a cut upload), kept so that the next process need not try again.
public struct ServerFact: Sendable, Hashable {
    /// What the fact is about, named by the adapter (`webdav.verified`).
    public var kind: String
    /// The server, as the adapter names it (an origin without credentials).
    public var server: String
    /// The user it was learnt as (`""` when anonymous).
    public var user: String
    /// The adapter's own encoding of the fact.
    public var value: Data
    /// When it was learnt; the adapter decides how long it trusts it.
    public var learntAt: Date

    /// Creates a fact.
    public init(kind: String, server: String, user: String, value: Data, learntAt: Date = Date()) {
        self.kind = kind
        self.server = server
        self.user = user
        self.value = value
        self.learntAt = learntAt
    }
}

/// Where providers keep ``ServerFact``s between processes: `SharedCache`'s `CacheStore` is
/// one. A provider finds it in ``ProviderConfiguration/serverFacts``; a store that fails is
/// treated as empty (the provider learns the fact again), never as an error of the call.
public protocol ServerFactStore: Sendable {
    /// The fact of `kind` about `server` as `user`, if one is kept.
    func fact(_ kind: String, server: String, user: String) async throws -> ServerFact?
    /// Keeps `fact`, replacing an older one of the same kind, server and user.
    func remember(_ fact: ServerFact) async throws
}
