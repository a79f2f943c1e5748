import Foundation

/// The `ProviderServices` key of ``ProviderServices/credentialsRenewed``.
package enum CredentialsRenewedKey: ProviderServiceKey {
    package static var defaultValue: (@Sendable (Credentials) async -> Void)? { nil }
}

extension ProviderServices {
    /// Told when a provider renewed its credentials by itself (an OAuth2 refresh that rotated the
    /// refresh token), with the new credentials, so that they are saved where the old ones came
    /// from: the next process must sign in with the new refresh token, the old one is spent.
    ///
    /// ``ProviderRegistry/provider(remote:store:services:probe:logger:retry:timeouts:onRetry:)``
    /// sets it, unless it is set already, to save into the remote's ``CredentialStore`` under the
    /// remote's name. An app that keeps credentials itself sets it when it makes a provider from a
    /// URL. It must not throw: a renewal that cannot be saved still serves the running requests.
    public var credentialsRenewed: (@Sendable (Credentials) async -> Void)? {
        get { self[CredentialsRenewedKey.self] }
        set { self[CredentialsRenewedKey.self] = newValue }
    }
}
