import Foundation

/// Keeps credentials out of configuration files, under a key such as a saved remote's name.
///
/// ProviderKit's `FileCredentialStore` keeps them in a file readable by its owner only.
///
/// ## Topics
/// - ``InMemoryCredentialStore``
public protocol CredentialStore: Sendable {
    /// The credentials saved under `key`, if any.
    func credentials(for key: String) async throws -> Credentials?
    /// Saves `credentials` under `key`, or removes the entry when `nil`.
    func setCredentials(_ credentials: Credentials?, for key: String) async throws
    /// The keys that have credentials.
    func keys() async throws -> [String]
}

/// Credentials held in memory for the life of the process.
public actor InMemoryCredentialStore: CredentialStore {
    private var entries: [String: Credentials] = [:]
    /// Creates an empty store.
    public init() {}
    public func credentials(for key: String) async throws -> Credentials? { entries[key] }
    public func setCredentials(_ credentials: Credentials?, for key: String) async throws { entries[key] = credentials }
    public func keys() async throws -> [String] { entries.keys.sorted() }
}
