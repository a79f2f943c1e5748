import Foundation
import Logging

/// Everything an adapter needs to make a provider.
public struct ProviderConfiguration: Sendable {
    /// The provider's root: for an HTTP adapter the server URL with its `http`/`https` scheme;
    /// for others the URL its factory's ``ProviderFactory/schemes`` map to (a `file` URL for a folder).
    public var url: URL
    /// The credentials.
    public var credentials: Credentials
    /// Typed values for the adapter's family, such as the HTTP transport (`HTTPProviderKit`
    /// reads and writes it as `transport`).
    public var services: ProviderServices
    /// Told before each retry of a call that failed in a way worth retrying.
    public var onRetry: (@Sendable (RetryNotice) -> Void)?
    /// Adapter-specific options (`dialect`, `repository`, …).
    public var options: [String: String]
    /// Where the provider logs (secrets removed): each request at `trace` (method, URL, status,
    /// duration), its decisions at `debug` (retries and their reasons, what a verification of the
    /// server concluded). A logger that drops everything by default: a library prints nothing
    /// unless its host asks, and then through the host's own log handler.
    public var logger: Logger
    /// When to retry.
    public var retry: RetryPolicy
    /// How long each request may take; the values left `nil` are the transport's own. The HTTP
    /// kit puts them on every request the provider sends.
    public var timeouts: Timeouts
    /// The ceilings of every page loop over the provider (`PageGuard`); the `maxPages` and
    /// `maxEntries` options, when given, override them (the factory reads them, with ProviderKit's
    /// `readingOptions(for:_:)`).
    public var pageLimits: PageLimits = .standard
    /// How questions asked at sign-in (a captcha) are answered; `nil` fails the call with the
    /// question's error (``ProviderError/Code/captchaRequired``).
    public var signIn: SignInInteraction?
    /// Where the provider keeps what it verified about the server between processes; `nil`
    /// keeps it for this process only.
    public var serverFacts: (any ServerFactStore)?

    /// Creates a configuration.
    public init(
        url: URL, credentials: Credentials = .none, services: ProviderServices = ProviderServices(),
        options: [String: String] = [:], logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }), retry: RetryPolicy = .standard,
        timeouts: Timeouts = Timeouts(), onRetry: (@Sendable (RetryNotice) -> Void)? = nil
    ) {
        self.onRetry = onRetry
        self.timeouts = timeouts
        self.url = url
        self.credentials = credentials
        self.services = services
        self.options = options
        self.logger = logger
        self.retry = retry
    }
}

/// What ``ProviderFactory/probe(_:context:)`` found at a URL.
public struct ProbeResult: Sendable, Hashable {
    /// The adapter that answers, such as `webdav`.
    public var kind: String
    /// How sure the probe is, 0–100; a specific signature (a Nextcloud `status.php`) beats a generic one (a DAV header).
    public var confidence: Int
    /// What the probe saw, for people.
    public var detail: String
    /// The URL to use with the adapter's own scheme.
    public var url: URL

    /// Creates a result.
    public init(kind: String, confidence: Int, detail: String, url: URL) {
        self.kind = kind
        self.confidence = confidence
        self.detail = detail
        self.url = url
    }
}

/// Makes providers of one adapter, and recognises its servers.
///
/// Built-in and third-party adapters register a factory with ``ProviderRegistry`` the same way.
public protocol ProviderFactory: Sendable {
    /// The adapter's name, such as `webdav`; also the `kind` of saved remotes.
    var kind: String { get }
    /// URL schemes this adapter handles, each mapped to the scheme of the URL its providers are
    /// configured with: `http` or `https` for an HTTP adapter (`webdavs` → `https`), `file` for a
    /// local folder.
    var schemes: [String: String] { get }
    /// Makes a provider rooted at `configuration.url`.
    func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider
    /// Makes a provider after talking to the server, so that its capabilities are those of
    /// this server rather than of the adapter in general.
    func connect(_ configuration: ProviderConfiguration) async throws -> any StorageProvider
    /// Splits a URL naming an item into the provider's root URL and the item's path below it.
    func locate(_ url: URL) throws -> (root: URL, path: ItemPath)
    /// Looks at an unknown `http`/`https` server and says whether this adapter fits it; `nil` if not.
    func probe(_ url: URL, context: ProbeContext) async -> ProbeResult?
}

extension ProviderFactory {
    /// By default connecting is ``makeProvider(_:)``.
    public func connect(_ configuration: ProviderConfiguration) async throws -> any StorageProvider {
        try makeProvider(configuration)
    }

    /// By default the root is the server's origin and the path is the URL's path.
    public func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        try locate(url, rootSegments: 0)
    }

    /// Splits a URL after its first `count` path segments: those (with a trailing slash) are the
    /// root, the rest is the item's path. `/nuxeo/a/b` with 1 is (`/nuxeo/`, `/a/b`); a Pydio URL
    /// `/pydio/my-files/a` with 2 is (`/pydio/my-files/`, `/a`).
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` when the URL has fewer segments.
    public func locate(_ url: URL, rootSegments count: Int) throws -> (root: URL, path: ItemPath) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ProviderError(.invalidArgument, "not a URL: \(Redactor.redact(url: url))")
        }
        let segments = components.percentEncodedPath.split(separator: "/").map(String.init)
        guard segments.count >= count else {
            throw ProviderError(.invalidArgument, "\(Redactor.redact(url: url)) names fewer than \(count) path segments before the item")
        }
        let path = try ItemPath(segments: segments.dropFirst(count).map { $0.removingPercentEncoding ?? $0 })
        components.percentEncodedPath = "/" + segments.prefix(count).map { $0 + "/" }.joined()
        components.query = nil
        components.fragment = nil
        guard let root = components.url else { throw ProviderError(.invalidArgument, "not a URL: \(Redactor.redact(url: url))") }
        return (root, path)
    }

    /// By default an adapter recognises nothing.
    public func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? { nil }
}
