import Foundation
import ProviderAPI

/// The credentials a command uses for a saved remote: the saved ones
/// (`strata remote add --save-login`), unless `override` is set: the command line's login, used
/// when one is given explicitly (`--user`, `--bearer`, `--password-file`) or none is saved.
struct RemoteCredentials: CredentialStore {
    /// The saved logins.
    let saved: any CredentialStore
    /// The login to use instead of the saved one.
    let override: Credentials?

    func credentials(for key: String) async throws -> Credentials? {
        if let override { return override }
        return try await saved.credentials(for: key)
    }

    func setCredentials(_ credentials: Credentials?, for key: String) async throws {
        try await saved.setCredentials(credentials, for: key)
    }

    func keys() async throws -> [String] { try await saved.keys() }
}
