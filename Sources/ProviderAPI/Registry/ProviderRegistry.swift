import Foundation
import Logging
import NIOConcurrencyHelpers

/// A saved remote: a name for a server, an adapter and its options. Secrets are
/// not part of it; they live in a ``CredentialStore`` under the remote's name.
public struct SavedRemote: Sendable, Hashable, Codable {
    /// The name used on the command line (`work:` in `work:/Reports`).
    public var name: String
    /// The adapter's ``ProviderFactory/kind``.
    public var kind: String
    /// The server URL: in one of the adapter's schemes (`webdavs://host/dav`, `memory://scratch/`) or in
    /// the scheme its factory maps them to (`https`, `file`); see ``ProviderFactory/schemes``.
    public var url: URL
    /// Adapter options.
    public var options: [String: String]

    /// Creates a remote.
    public init(name: String, kind: String, url: URL, options: [String: String] = [:]) {
        self.name = name
        self.kind = kind
        self.url = url
        self.options = options
    }
}

/// Maps URL schemes and saved remote names to adapters, so an app picks a provider at run time.
///
/// ```swift
/// let registry = ProviderRegistry()
/// registry.register(WebDAVProviderFactory())
/// let (provider, path) = try await registry.provider(for: URL(string: "webdav://127.0.0.1:8081/docs/a.txt")!,
///                                                    credentials: .basic(username: "u", password: p))
/// ```
///
/// One method per job: ``provider(for:credentials:options:services:root:probe:logger:retry:timeouts:onRetry:)``
/// for a URL, ``provider(remote:store:services:probe:logger:retry:timeouts:onRetry:)`` for a saved
/// remote, ``detect(_:credentials:services:)`` for an unknown server.
public final class ProviderRegistry: Sendable {
    private struct State {
        var factories: [String: any ProviderFactory] = [:]
        var byScheme: [String: String] = [:]
        var remotes: [String: SavedRemote] = [:]
        var signIn: SignInInteraction?
        var serverFacts: (any ServerFactStore)?
        var uploadCheckpoints: (any UploadCheckpoints)?
    }
    private let state = NIOLockedValueBox(State())

    /// An empty registry.
    public init() {}

    /// How questions asked at sign-in are answered, for every provider this registry makes
    /// (``ProviderConfiguration/signIn``).
    public var signIn: SignInInteraction? {
        get { state.withLockedValue { $0.signIn } }
        set { state.withLockedValue { $0.signIn = newValue } }
    }

    /// Where every provider this registry makes keeps what it verified about its server
    /// (``ProviderConfiguration/serverFacts``).
    public var serverFacts: (any ServerFactStore)? {
        get { state.withLockedValue { $0.serverFacts } }
        set { state.withLockedValue { $0.serverFacts = newValue } }
    }

    /// Where every provider this registry makes keeps the sessions of its chunked uploads, so that
    /// a cut upload resumes (``ProviderServices/uploadCheckpoints``), unless its services name a store.
    public var uploadCheckpoints: (any UploadCheckpoints)? {
        get { state.withLockedValue { $0.uploadCheckpoints } }
        set { state.withLockedValue { $0.uploadCheckpoints = newValue } }
    }

    /// `configuration` with the registry's ``signIn``, ``serverFacts`` and ``uploadCheckpoints``.
    private func prepared(_ configuration: ProviderConfiguration) -> ProviderConfiguration {
        var configuration = configuration
        if configuration.signIn == nil { configuration.signIn = signIn }
        if configuration.serverFacts == nil { configuration.serverFacts = serverFacts }
        if configuration.services.uploadCheckpoints == nil { configuration.services.uploadCheckpoints = uploadCheckpoints }
        return configuration
    }

    /// Registers `factory` for its kind and schemes, replacing an earlier one.
    public func register(_ factory: any ProviderFactory) {
        state.withLockedValue { state in
            state.factories[factory.kind] = factory
            for scheme in factory.schemes.keys { state.byScheme[scheme.lowercased()] = factory.kind }
        }
    }

    /// The registered adapter kinds.
    public var kinds: [String] {
        state.withLockedValue { $0.factories.keys.sorted() }
    }

    /// The factory of `kind`.
    package func factory(kind: String) -> (any ProviderFactory)? {
        state.withLockedValue { $0.factories[kind] }
    }

    /// The factory handling URLs with `scheme`.
    package func factory(scheme: String) -> (any ProviderFactory)? {
        state.withLockedValue { state in state.byScheme[scheme.lowercased()].flatMap { state.factories[$0] } }
    }

    /// Saves a remote under its name.
    public func addRemote(_ remote: SavedRemote) {
        state.withLockedValue { $0.remotes[remote.name] = remote }
    }

    /// Forgets the saved remote called `name` (``saveRemotes(to:)`` then writes the file without it).
    public func removeRemote(named name: String) {
        state.withLockedValue { _ = $0.remotes.removeValue(forKey: name) }
    }

    /// The saved remote called `name`.
    public func remote(named name: String) -> SavedRemote? {
        state.withLockedValue { $0.remotes[name] }
    }

    /// All saved remotes, by name.
    public var savedRemotes: [SavedRemote] {
        state.withLockedValue { $0.remotes.values.sorted { $0.name < $1.name } }
    }

    /// Reads saved remotes from a JSON file (an array of ``SavedRemote``); a missing file adds none.
    public func loadRemotes(from url: URL) throws {
        guard let data = try? Data(contentsOf: url) else { return }
        let list: [SavedRemote]
        do { list = try JSONDecoder().decode([SavedRemote].self, from: data) } catch {
            throw ProviderError(.invalidArgument, "\(url.path) is not a valid remotes file")
        }
        for remote in list { addRemote(remote) }
    }

    /// Writes the saved remotes to a JSON file.
    public func saveRemotes(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(savedRemotes).write(to: url, options: .atomic)
    }

    /// Where a provider made for a URL is rooted (``provider(for:credentials:options:services:root:probe:logger:retry:timeouts:onRetry:)``).
    public enum Root: Sendable, Hashable {
        /// Where the adapter says its root ends (``ProviderFactory/locate(_:)``): a WebDAV server's
        /// origin, a Nuxeo server's context path, a local file system's `/`. The rest of the URL's
        /// path is the path of the item it names.
        case adapter
        /// At the URL itself, which names a folder: the provider sees nothing above it (a local
        /// provider is confined to that folder), and the item's path is `/`.
        case url
    }

    /// The factory for `url` and the URL with the scheme the factory maps it to (``ProviderFactory/schemes``):
    /// `http`/`https` for an HTTP adapter, `file` for a local folder.
    ///
    /// - Throws: ``ProviderError/Code/unsupported`` for a scheme no adapter handles;
    ///   ``ProviderError/Code/invalidArgument`` for an `http`/`https` URL without a host, or a port outside 1…65535.
    package func route(_ url: URL) throws -> (factory: any ProviderFactory, wireURL: URL) {
        try URLChecks.requireValidPort(url)
        guard let scheme = url.scheme?.lowercased(), let factory = factory(scheme: scheme),
            let wire = factory.schemes[scheme] ?? factory.schemes.first(where: { $0.key.lowercased() == scheme })?.value,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            // The scheme alone: a target such as `user:password@host` parses as the scheme `user`
            // with the password in its path, where redacting user info would not find it.
            throw ProviderError(.unsupported, "no adapter is registered for the scheme '\(url.scheme ?? "")'")
        }
        components.scheme = wire
        components.user = nil
        components.password = nil
        guard let wireURL = components.url, !Self.isHTTP(wire) || URLChecks.isValidHTTPURL(wireURL) else {
            throw ProviderError(.invalidArgument, "invalid URL \(Redactor.redact(url: url))")
        }
        return (factory, wireURL)
    }

    /// Makes the provider for a URL whose scheme names an adapter, and the path of the item the
    /// URL names below the provider's root.
    ///
    /// ```swift
    /// // The adapter probes the server, so capabilities are this server's own.
    /// let (dav, folder) = try await registry.provider(
    ///     for: URL(string: "webdavs://dav.example.com/Reports")!, credentials: .basic(username: "ann", password: secret))
    /// // A local folder, confined: nothing above /srv/files is reachable.
    /// let (files, _) = try await registry.provider(for: URL(fileURLWithPath: "/srv/files"), root: .url)
    /// // Offline: made without asking the server.
    /// let (cached, path) = try await registry.provider(for: url, probe: false)
    /// ```
    ///
    /// - Parameters:
    ///   - url: the URL, in one of a registered adapter's schemes (``ProviderFactory/schemes``).
    ///     Its user info is dropped: pass secrets as `credentials`.
    ///   - credentials: what the provider logs in with.
    ///   - options: adapter options (``ProviderConfiguration/options``).
    ///   - services: typed values for the adapter's family, such as the HTTP transport
    ///     (`HTTPProviderKit`'s `ProviderServices.transport(_:)`).
    ///   - root: where the provider's root is: where the adapter says (``Root/adapter``, the
    ///     default) or at the URL itself (``Root/url``).
    ///   - probe: whether the adapter may ask the server first (``ProviderFactory/connect(_:)``) so
    ///     that capabilities are this server's own (the default); `false` makes the provider
    ///     without the network (``ProviderFactory/makeProvider(_:)``), with the adapter's default
    ///     capabilities: for working offline, where a probe could only fail.
    ///   - logger: where the provider logs (``ProviderConfiguration/logger``); drops everything by default.
    ///   - retry: when to retry (``ProviderConfiguration/retry``).
    ///   - timeouts: how long each request may take (``ProviderConfiguration/timeouts``).
    ///   - onRetry: told before each retry (``ProviderConfiguration/onRetry``).
    /// - Returns: the provider, and the path of the item `url` names below its root (`/` with ``Root/url``).
    /// - Throws: ``ProviderError/Code/unsupported`` for a scheme no adapter handles;
    ///   ``ProviderError/Code/invalidArgument`` for an invalid URL or one the adapter cannot split;
    ///   what the adapter throws.
    public func provider(
        for url: URL, credentials: Credentials = .none, options: [String: String] = [:],
        services: ProviderServices = ProviderServices(), root: Root = .adapter, probe: Bool = true,
        logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }),
        retry: RetryPolicy = .standard, timeouts: Timeouts = Timeouts(),
        onRetry: (@Sendable (RetryNotice) -> Void)? = nil
    ) async throws -> (provider: any StorageProvider, path: ItemPath) {
        let (factory, wireURL) = try route(url)
        let (rootURL, path) = root == .url ? (wireURL, ItemPath.root) : try factory.locate(wireURL)
        let configuration = prepared(ProviderConfiguration(
            url: rootURL, credentials: credentials, services: services, options: options, logger: logger, retry: retry,
            timeouts: timeouts, onRetry: onRetry))
        let provider = probe ? try await factory.connect(configuration) : try factory.makeProvider(configuration)
        return (provider, path)
    }

    /// Makes the provider of a saved remote, with credentials from `store` under the remote's name.
    ///
    /// The provider is rooted at the remote's URL. Credentials the provider renews by itself (an
    /// OAuth2 refresh) are saved back into `store` under the same name
    /// (``ProviderServices/credentialsRenewed``, unless `services` sets it); a failure to save
    /// them is logged as a warning and does not fail the request.
    ///
    /// - Parameters:
    ///   - name: the remote's name (``SavedRemote/name``).
    ///   - store: where its credentials are; `nil` for none.
    ///   - services: typed values for the adapter's family, such as the HTTP transport.
    ///   - probe: whether the adapter may ask the server first (``ProviderFactory/connect(_:)``),
    ///     the default; `false` makes it without the network (``ProviderFactory/makeProvider(_:)``):
    ///     for working offline, with the adapter's default capabilities rather than the server's.
    ///   - logger: where the provider logs (``ProviderConfiguration/logger``); drops everything by default.
    ///   - retry: when to retry (``ProviderConfiguration/retry``).
    ///   - timeouts: how long each request may take (``ProviderConfiguration/timeouts``).
    ///   - onRetry: told before each retry (``ProviderConfiguration/onRetry``).
    /// - Throws: ``ProviderError/Code/notFound`` when no remote has the name;
    ///   ``ProviderError/Code/unsupported`` when its adapter is not registered; what the store
    ///   or the adapter throws.
    public func provider(
        remote name: String, store: (any CredentialStore)?, services: ProviderServices = ProviderServices(),
        probe: Bool = true, logger: Logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }),
        retry: RetryPolicy = .standard, timeouts: Timeouts = Timeouts(),
        onRetry: (@Sendable (RetryNotice) -> Void)? = nil
    ) async throws -> any StorageProvider {
        let (factory, configuration) = try await remoteConfiguration(
            name, store: store, services: services, logger: logger, retry: retry, timeouts: timeouts, onRetry: onRetry)
        return probe ? try await factory.connect(configuration) : try factory.makeProvider(configuration)
    }

    /// The factory and configuration of the saved remote `name`.
    private func remoteConfiguration(
        _ name: String, store: (any CredentialStore)?, services: ProviderServices, logger: Logger, retry: RetryPolicy,
        timeouts: Timeouts, onRetry: (@Sendable (RetryNotice) -> Void)?
    ) async throws -> (factory: any ProviderFactory, configuration: ProviderConfiguration) {
        guard let remote = remote(named: name) else { throw ProviderError(.notFound, "no remote named \(name)") }
        guard let factory = factory(kind: remote.kind) else {
            throw ProviderError(.unsupported, "remote \(name) needs the \(remote.kind) adapter, which is not registered")
        }
        var url = remote.url
        if let scheme = url.scheme?.lowercased(), let wire = factory.schemes[scheme],
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            components.scheme = wire
            url = components.url ?? url
        }
        guard !Self.isHTTP(url.scheme ?? "") || URLChecks.isValidHTTPURL(url) else {
            throw ProviderError(.invalidArgument, "remote \(name) has an invalid URL \(Redactor.redact(url: url))")
        }
        let credentials = try await store?.credentials(for: name) ?? .none
        var services = services
        if let store, services.credentialsRenewed == nil {
            services.credentialsRenewed = { renewed in
                do {
                    try await store.setCredentials(renewed, for: name)
                } catch {
                    // Never the error's text: a store's error may quote what it was given.
                    let reason = (error as? ProviderError).map { "\($0.code)" } ?? "\(type(of: error))"
                    logger.warning("could not save the renewed login of remote \(name): \(reason)")
                }
            }
        }
        let configuration = prepared(ProviderConfiguration(
            url: url, credentials: credentials, services: services, options: remote.options, logger: logger, retry: retry,
            timeouts: timeouts, onRetry: onRetry))
        return (factory, configuration)
    }

    /// Probes an unknown `http`/`https` server with every registered adapter, most confident first.
    public func detect(
        _ url: URL, credentials: Credentials = .none, services: ProviderServices = ProviderServices()
    ) async -> [ProbeResult] {
        guard URLChecks.isValidHTTPURL(url) else { return [] }
        let candidates = state.withLockedValue { Array($0.factories.values) }
        let context = ProbeContext(credentials: credentials, services: services)
        var results: [ProbeResult] = []
        await withTaskGroup(of: ProbeResult?.self) { group in
            for factory in candidates { group.addTask { await factory.probe(url, context: context) } }
            for await result in group { if let result { results.append(result) } }
        }
        return results.sorted { ($0.confidence, $1.kind) > ($1.confidence, $0.kind) }
    }

    /// Whether `scheme` is `http` or `https`, whose URLs must name a host.
    private static func isHTTP(_ scheme: String) -> Bool {
        let scheme = scheme.lowercased()
        return scheme == "http" || scheme == "https"
    }
}
