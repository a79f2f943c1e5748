import Foundation
import ProviderAPI

/// Credentials in the operating system's keyring when one answers, else in a file readable by
/// its owner only: the store of an app or tool that runs on desktops and on headless servers
/// alike (the `strata` command line keeps its saved logins in one).
///
/// - Reading looks in the keyring, then in the file: logins saved before the keyring was there
///   (or while it did not answer) stay readable.
/// - Saving while the keyring answers puts the login there, and only then removes it from the
///   file (the file is not created for that). Removing removes it from both.
/// - While no keyring answers, everything happens in the file, and `onFallback` is told why,
///   once per store, the first time a login is saved there.
///
/// Whether the keyring answers is asked once, on first use, and kept for the life of the store.
/// A keyring that answered but then fails an operation (a prompt dismissed, a collection that
/// cannot be unlocked) makes that operation throw: a login is never quietly saved in the file
/// instead of the keyring the user has.
///
/// ```swift
/// let store = KeyringOrFileCredentialStore(
///     keyring: KeyringOrFileCredentialStore.systemKeyring(),
///     file: FileCredentialStore(url: configFolder.appendingPathComponent("credentials.json")),
///     onFallback: { reason in print("no keyring answered (\(reason)): logins are kept in the file") })
/// ```
public actor KeyringOrFileCredentialStore: CredentialStore {
    /// The keyring, or `nil` to keep everything in ``file``.
    public nonisolated let keyring: (any KeyringStore)?
    /// The file of the logins when no keyring answers, and of those saved before.
    public nonisolated let file: FileCredentialStore
    private let onFallback: @Sendable (_ reason: String) -> Void
    private var answer: Task<String?, Never>?
    private var toldFallback = false

    /// A store using `keyring` when it answers, else `file`; `onFallback` is called once, with the
    /// keyring's reason, when a login is first saved in the file because the keyring did not
    /// answer (not when `keyring` is `nil`: the caller chose the file).
    public init(
        keyring: (any KeyringStore)?, file: FileCredentialStore, onFallback: @escaping @Sendable (_ reason: String) -> Void = { _ in }
    ) {
        self.keyring = keyring
        self.file = file
        self.onFallback = onFallback
    }

    /// The keyring of this system: the Keychain on Apple platforms (`KeychainCredentialStore`),
    /// the Secret Service elsewhere (``SecretServiceCredentialStore``), for the items of
    /// `application` and `scope`.
    public static func systemKeyring(application: String = "strata", scope: String = "") -> any KeyringStore {
        #if canImport(Security)
            KeychainCredentialStore(application: application, scope: scope)
        #else
            SecretServiceCredentialStore(application: application, scope: scope)
        #endif
    }

    /// `nil` when the keyring answers (logins are saved there); else why everything is kept in
    /// the file. Asked once, then remembered.
    public func keyringUnavailableReason() async -> String? {
        guard let keyring else { return "no keyring is used" }
        if let answer { return await answer.value }
        let asked = Task { await keyring.unavailableReason() }
        answer = asked
        return await asked.value
    }

    /// The keyring, when it answers.
    private func answeringKeyring() async -> (any KeyringStore)? {
        await keyringUnavailableReason() == nil ? keyring : nil
    }

    public func credentials(for key: String) async throws -> Credentials? {
        if let keyring = await answeringKeyring(), let found = try await keyring.credentials(for: key) { return found }
        return try await file.credentials(for: key)
    }

    public func setCredentials(_ credentials: Credentials?, for key: String) async throws {
        guard let answering = await answeringKeyring() else {
            if credentials != nil, keyring != nil, !toldFallback, let reason = await keyringUnavailableReason() {
                toldFallback = true
                onFallback(reason)
            }
            let inFile = try await file.credentials(for: key) != nil
            if credentials != nil || inFile { try await file.setCredentials(credentials, for: key) }
            return
        }
        try await answering.setCredentials(credentials, for: key)
        // Only now, with the keyring holding it (or holding nothing, for a removal): the file's
        // copy goes, and a file without the key is left as it is (or not created).
        if try await file.credentials(for: key) != nil {
            try await file.setCredentials(nil, for: key)
        }
    }

    public func keys() async throws -> [String] {
        var keys = Set(try await file.keys())
        if let keyring = await answeringKeyring() { keys.formUnion(try await keyring.keys()) }
        return keys.sorted()
    }

    /// Where the login of `key` is kept, or `nil` when there is none: the keyring when it
    /// answers and holds it, else the file when it holds it.
    public func location(of key: String) async throws -> CredentialLocation? {
        try await locations()[key]
    }

    /// Where each saved login is kept (``location(of:)`` for every key), asking the keyring and
    /// reading the file once. No secret is read from the keyring.
    public func locations() async throws -> [String: CredentialLocation] {
        var locations: [String: CredentialLocation] = [:]
        for key in try await file.keys() { locations[key] = .file(file.url.path) }
        if let keyring = await answeringKeyring() {
            for key in try await keyring.keys() { locations[key] = .keyring(keyring.keyringName) }
        }
        return locations
    }
}
