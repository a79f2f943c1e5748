import ArgumentParser
import Foundation
import ProviderAPI
import ProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The logins saved with remotes (`strata remote add --save-login`, `strata login`): in the
/// operating system's keyring when one answers (the Secret Service on Linux, the Keychain on
/// Apple platforms), else in `credentials.json` in the config folder (mode 0600), which is also
/// read for the logins saved there before. The command line says once per run, on stderr, when a
/// login is saved in the file because no keyring answered.
///
/// `STRATA_KEYRING` chooses: `auto` (the default: the keyring when it answers), `file` or `off`
/// (the file only, without the notice).
///
/// The keyring's items are those of `application=strata` and the scope of the config folder:
/// empty for the account's own (`~/.config/strata` of the home in the password database), else
/// the folder's path, so that a second
/// config folder (`XDG_CONFIG_HOME`, a test's home) keeps logins of its own, as its
/// `credentials.json` would.
struct SavedLogins: CredentialStore {
    /// The store of this process, made from its environment on first use.
    static let shared = SavedLogins(environment: ProcessInfo.processInfo.environment)

    /// The store, or why `STRATA_KEYRING` makes none.
    private let store: Result<KeyringOrFileCredentialStore, ValidationError>

    /// The saved logins of the config folder of `environment`, as `STRATA_KEYRING` says.
    init(environment: [String: String]) {
        let config = StrataDirectories.config(environment)
        let file = FileCredentialStore(url: config.appendingPathComponent("credentials.json"))
        let keyring: (any KeyringStore)?
        switch (environment["STRATA_KEYRING"] ?? "").lowercased() {
        case "", "auto":
            keyring = KeyringOrFileCredentialStore.systemKeyring(application: "strata", scope: Self.scope(of: config, environment))
        case "file", "off":
            keyring = nil
        default:
            store = .failure(ValidationError("STRATA_KEYRING takes auto, file or off, not '\(TerminalText.escape(environment["STRATA_KEYRING"] ?? ""))'"))
            return
        }
        let path = file.url.path
        store = .success(
            KeyringOrFileCredentialStore(keyring: keyring, file: file) { reason in
                Output.error("strata: no keyring answered (\(reason)): logins are kept in \(path), readable by you only")
            })
    }

    /// The keyring scope of the config folder `config`: empty for the account's own, else its path.
    static func scope(of config: URL, _ environment: [String: String]) -> String {
        let path = config.standardizedFileURL.path
        // The account's home from the password database: `$HOME` may be a test's or a script's.
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return path }
        let own = StrataDirectories.config(["HOME": String(cString: directory)]).standardizedFileURL.path
        return path == own ? "" : path
    }

    private func resolved() throws -> KeyringOrFileCredentialStore {
        try store.get()
    }

    func credentials(for key: String) async throws -> Credentials? {
        try await resolved().credentials(for: key)
    }

    func setCredentials(_ credentials: Credentials?, for key: String) async throws {
        try await resolved().setCredentials(credentials, for: key)
    }

    func keys() async throws -> [String] {
        try await resolved().keys()
    }

    /// Where each saved login is kept.
    func locations() async throws -> [String: CredentialLocation] {
        try await resolved().locations()
    }
}
