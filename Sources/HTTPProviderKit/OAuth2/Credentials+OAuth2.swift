import Foundation
import Logging
import ProviderAPI

extension Credentials {
    /// As `httpAuthenticator(refresh:)`, with an OAuth2 login renewed through `transport` and its
    /// renewals handed to `onRenew`.
    package func httpAuthenticator(
        transport: any HTTPTransport, onRenew: (@Sendable (Credentials) async -> Void)?,
        logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() })
    ) -> any Authenticator {
        guard kind == .oauth2 else { return httpAuthenticator() }
        return OAuth2Authenticator(credentials: self, transport: transport, logger: logger, onRenew: onRenew)
    }
}

extension ProviderConfiguration {
    /// The authenticator that sends the configuration's credentials as standard HTTP
    /// authentication (`Credentials.httpAuthenticator(refresh:)`), an OAuth2 login renewing
    /// itself through the configuration's transport and saved back through
    /// `ProviderServices.credentialsRenewed`.
    ///
    /// What ``RequestExecutor/init(configuration:authenticator:maxRedirects:defaultHeaders:)``
    /// uses when given no authenticator: an adapter that sends standard HTTP authentication gets
    /// OAuth2 renewal without a line of its own.
    public func httpAuthenticator() -> any Authenticator {
        credentials.httpAuthenticator(transport: transport, onRenew: services.credentialsRenewed, logger: logger)
    }
}
