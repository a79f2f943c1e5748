import Foundation
import HTTPProviderKit
import ProviderAPI

/// Signing in through OAuth2 (`strata login --oauth2`).
///
/// A placeholder with the signature of the OAuth2 sign-in, which another change provides: until
/// then it refuses with `ProviderError.Code.unsupported`.
enum OAuth2Login {
    /// Signs in to the server at `url` (adapter `kind`, adapter `options`) through OAuth2: the
    /// authorization code with PKCE in the browser, or the device flow when `device` is set.
    /// `present` shows the user a message and, when there is one, the URL to open in a browser.
    static func signIn(
        url: URL, kind: String, options: [String: String], device: Bool, transport: any HTTPTransport,
        present: @escaping @Sendable (_ message: String, _ browserURL: URL?) -> Void
    ) async throws -> Credentials {
        throw ProviderError(.unsupported, "this strata cannot sign in through OAuth2 yet")
    }
}
