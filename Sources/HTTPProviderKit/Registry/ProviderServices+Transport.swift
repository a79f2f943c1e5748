import Foundation
import Logging
import ProviderAPI

/// The `ProviderServices` key of the HTTP transport; ``AsyncHTTPClientTransport/shared`` when unset.
public enum HTTPTransportKey: ProviderServiceKey {
    public static var defaultValue: any HTTPTransport { AsyncHTTPClientTransport.shared }
}

extension ProviderServices {
    /// The transport HTTP adapters send requests through; ``AsyncHTTPClientTransport/shared`` unless set.
    public var transport: any HTTPTransport {
        get { self[HTTPTransportKey.self] }
        set { self[HTTPTransportKey.self] = newValue }
    }

    /// Services holding `transport`.
    public static func transport(_ transport: any HTTPTransport) -> ProviderServices {
        var services = ProviderServices()
        services.transport = transport
        return services
    }
}

extension ProviderConfiguration {
    /// The transport to send requests through (``ProviderServices/transport``), putting
    /// `ProviderConfiguration.timeouts` on each request that does not set its own.
    ///
    /// Setting it sets ``ProviderServices/transport``; reading it gives that transport itself when
    /// no timeout is set, else that transport behind one that stamps the timeouts.
    public var transport: any HTTPTransport {
        get {
            let transport = services.transport
            return timeouts.isEmpty ? transport : TimeoutStampingTransport(base: transport, timeouts: timeouts)
        }
        set { services.transport = newValue }
    }

    /// Creates a configuration for an HTTP adapter that sends its requests through `transport`.
    public init(
        url: URL, credentials: Credentials = .none, transport: any HTTPTransport,
        options: [String: String] = [:], logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }), retry: RetryPolicy = .standard,
        timeouts: Timeouts = Timeouts(), onRetry: (@Sendable (RetryNotice) -> Void)? = nil
    ) {
        self.init(
            url: url, credentials: credentials, services: .transport(transport), options: options, logger: logger,
            retry: retry, timeouts: timeouts, onRetry: onRetry)
    }
}

extension ProbeContext {
    /// An executor that sends the context's credentials as standard HTTP authentication through
    /// its transport, without retries: what an HTTP adapter's probe asks with.
    public func executor() -> RequestExecutor {
        RequestExecutor(
            transport: services.transport,
            authenticator: credentials.httpAuthenticator(transport: services.transport, onRenew: services.credentialsRenewed),
            retry: .none)
    }
}

extension Credentials {
    /// The authenticator that sends these credentials as standard HTTP authentication: a user
    /// name and password as Basic, or as Digest once the server asks for it
    /// (``PasswordAuthenticator``, policy ``PasswordAuthenticator/Policy/automatic``); Bearer for a
    /// token or an access token (an ``OAuth2Authenticator`` renewing it through the shared
    /// transport for an OAuth2 login); nothing otherwise.
    public func httpAuthenticator(refresh: BearerAuthenticator.Refresh? = nil) -> any Authenticator {
        if kind == .oauth2 { return OAuth2Authenticator(credentials: self, transport: AsyncHTTPClientTransport.shared) }
        if let username, let password { return PasswordAuthenticator(username: username, password: password) }
        if let token = token ?? accessToken { return BearerAuthenticator(token: token, refresh: refresh) }
        return NoAuthenticator()
    }
}

/// Puts a provider's ``Timeouts`` on each request that does not set its own, then sends it through `base`.
struct TimeoutStampingTransport: HTTPTransport {
    let base: any HTTPTransport
    let timeouts: Timeouts

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var request = request
        request.timeouts = request.timeouts.filling(from: timeouts)
        return try await base.send(request)
    }
}
