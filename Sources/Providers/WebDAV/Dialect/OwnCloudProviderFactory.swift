import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// Registers the ownCloud/Nextcloud dialect of the WebDAV adapter: schemes `nextcloud` and
/// `nextclouds` (or `owncloud` and `ownclouds` for the ownCloud flavor), and recognition of
/// both servers by `status.php`, with more confidence than a bare DAV header.
///
/// A URL names the server and an item in the user's files: `nextclouds://cloud.example.com/Documents/q3.pdf`
/// has its server root at the origin. A server installed below a path is named through its DAV
/// root: `nextclouds://example.com/cloud/remote.php/dav/files/ann/Documents/q3.pdf`. The user
/// comes from the credentials (Basic, app password), the option `user`, or, with a bearer token,
/// from `ocs/v2.php/cloud/user`.
///
/// Options (read once, here, into a ``WebDAVProvider/Configuration``, which documents each):
/// `dialect` (`nextcloud`/`owncloud`), `user`, `chunkSize` and `chunkThreshold` (bytes),
/// `chunking`, `search` (`true`/`false`, to override what the server reports), `auth` (`auto` or
/// `digest`), `maxPages` and `maxEntries`; any other name fails with `ProviderError.Code.invalidArgument`.
///
/// ```swift
/// registry.register(OwnCloudProviderFactory(flavor: .nextcloud))
/// registry.register(OwnCloudProviderFactory(flavor: .owncloud))
/// ```
public struct OwnCloudProviderFactory: ProviderFactory {
    /// The flavor providers of this factory speak, unless the `dialect` option or `status.php` says otherwise.
    package let flavor: WebDAVDialect.Flavor

    /// Creates the factory for one flavor.
    public init(flavor: WebDAVDialect.Flavor = .nextcloud) { self.flavor = flavor }

    public var kind: String { flavor.rawValue }
    public var schemes: [String: String] { [flavor.rawValue: "http", flavor.rawValue + "s": "https"] }

    /// Where a URL's server root, DAV root and user are.
    struct Endpoints {
        var serverRoot: URL
        var davRoot: URL?
        var user: String?
    }

    /// Splits an `http`/`https` URL at `remote.php`: what comes before is the server root;
    /// `remote.php/dav/files/USER/…` or `remote.php/webdav/…` is the DAV root.
    static func endpoints(_ url: URL) throws -> Endpoints {
        try URLChecks.requireValidPort(url)
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ProviderError(.invalidArgument, "not a URL: \(Redactor.redact(url: url))")
        }
        components.query = nil
        components.fragment = nil
        let raw = components.percentEncodedPath.split(separator: "/").map(String.init)
        guard let index = raw.firstIndex(of: "remote.php") else {
            return Endpoints(serverRoot: WebDAVDialect.directoryURL(components.url ?? url))
        }
        var server = components
        server.percentEncodedPath = "/" + raw[..<index].map { $0 + "/" }.joined()
        guard let serverRoot = server.url else { throw ProviderError(.invalidArgument, "invalid server URL") }
        let rest = Array(raw[(index + 1)...])
        if rest.count >= 3, rest[0] == "dav", rest[1] == "files" {
            return Endpoints(
                serverRoot: serverRoot, davRoot: WebDAVDialect.directoryURL(components.url ?? url),
                user: rest[2].removingPercentEncoding ?? rest[2])
        }
        if rest.first == "webdav" {
            return Endpoints(serverRoot: serverRoot, davRoot: WebDAVDialect.directoryURL(components.url ?? url))
        }
        throw ProviderError(
            .invalidArgument, "\(Redactor.redact(url: url)) is not below remote.php/dav/files/USER/ or remote.php/webdav/")
    }

    /// The root ends after `remote.php/dav/files/USER` or `remote.php/webdav` when the URL names
    /// them, else at the origin; the rest is the item's path in the user's files.
    public func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        let segments = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath
            .split(separator: "/").map(String.init) ?? []
        guard let index = segments.firstIndex(of: "remote.php") else { return try locate(url, rootSegments: 0) }
        let after = segments.count > index + 1 ? segments[index + 1] : ""
        let count = after == "webdav" ? index + 2 : index + 4
        return try locate(url, rootSegments: min(count, segments.count))
    }

    /// A provider without talking to the server: the features are those of a current server of this flavor.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, an option that is
    ///   malformed or unknown, or no user to name the DAV root.
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        let (common, webdav) = try WebDAVProvider.reading(configuration)
        let endpoints = try Self.endpoints(common.url)
        let flavor = webdav.dialect ?? self.flavor
        guard let user = webdav.user ?? endpoints.user ?? common.credentials.username else {
            throw ProviderError(.invalidArgument, "the \(flavor.rawValue) dialect needs a user without connecting: give -o user=NAME")
        }
        var features = OwnCloudServerFeatures(search: flavor == .nextcloud)
        Self.override(&features, webdav)
        let dialect = Self.dialect(flavor, endpoints.serverRoot, user, nil, features, webdav)
        var dav = common
        dav.url = endpoints.davRoot ?? dialect.filesRoot
        return try WebDAVProvider(
            configuration: dav, profile: Self.assumedProfile, dialect: dialect, authenticator: try webdav.authenticator(for: common))
    }

    /// A provider after asking the server what it is: `status.php`, the OCS capabilities (and the
    /// user, for a bearer token), a `SEARCH` probe where the capabilities do not say, and the
    /// WebDAV probe of the DAV root.
    public func connect(_ configuration: ProviderConfiguration) async throws -> any StorageProvider {
        try await Self.connect(configuration, flavor: flavor)
    }

    /// ``connect(_:)`` with a given default flavor, reading `configuration`'s string options into a
    /// ``WebDAVProvider/Configuration`` as the factories do.
    package static func connect(_ configuration: ProviderConfiguration, flavor defaultFlavor: WebDAVDialect.Flavor) async throws -> WebDAVProvider {
        let (common, webdav) = try WebDAVProvider.reading(configuration)
        return try await connect(common, webdav: webdav, flavor: defaultFlavor)
    }

    /// ``connect(_:)`` with a typed configuration and a default flavor, for `webdav` (whose
    /// ``WebDAVProvider/Configuration/dialect`` wins over `status.php` and the default);
    /// `configuration`'s string options are not read.
    package static func connect(
        _ configuration: ProviderConfiguration, webdav: WebDAVProvider.Configuration, flavor defaultFlavor: WebDAVDialect.Flavor
    ) async throws -> WebDAVProvider {
        var configuration = configuration
        configuration.options = [:]
        let endpoints = try endpoints(configuration.url)
        let authenticator = try await webdav.authenticator(connecting: configuration)
        let executor = RequestExecutor(configuration: configuration, authenticator: authenticator)
        let status = await fetchStatus(endpoints.serverRoot, executor: executor)
        if let status, status.maintenance {
            throw ProviderError(.server, "the server is in maintenance mode", httpStatus: 503)
        }
        let flavor = webdav.dialect ?? status?.flavor ?? defaultFlavor
        let ocs = OCSClient(executor: executor, serverRoot: endpoints.serverRoot)
        var user = webdav.user ?? endpoints.user ?? configuration.credentials.username
        if user == nil {
            let envelope = try await ocs.call(.GET, "cloud/user")
            user = envelope.data["id"]?.stringValue
        }
        guard let user, !user.isEmpty else { throw ProviderError(.invalidResponse, "the server did not say who the user is") }
        var features: OwnCloudServerFeatures
        var searchDeclared = false
        do {
            let envelope = try await ocs.call(.GET, "cloud/capabilities")
            features = OwnCloudServerFeatures(capabilities: envelope.data, flavor: flavor)
            searchDeclared = envelope.data["capabilities"]?["dav"]?["search"] != nil
        } catch let failure as ProviderError where failure.code == .unauthorized || failure.code == .cancelled {
            throw failure
        } catch {
            features = OwnCloudServerFeatures(search: flavor == .nextcloud)
        }
        override(&features, webdav)
        var dialect = dialect(flavor, endpoints.serverRoot, user, status?.version, features, webdav)
        var dav = configuration
        dav.url = endpoints.davRoot ?? dialect.filesRoot
        let plain = try WebDAVProvider(configuration: dav, profile: assumedProfile, dialect: dialect, authenticator: authenticator)
        if !searchDeclared, webdav.search == nil {
            dialect.features.search = await plain.searchAnswers()
        }
        var profile = try await plain.probeProfile()
        // status.php identified the server: that chooses the starting guess (ownCloud and Nextcloud
        // honour PUT preconditions, stage uploads in a part file and serve ranges), never the verdict,
        // which the first write verifies as on any other server.
        profile.honoursPreconditions = Self.assumedProfile.honoursPreconditions
        profile.servesRanges = Self.assumedProfile.servesRanges
        profile.keepsPartialUploads = Self.assumedProfile.keepsPartialUploads
        let provider = try WebDAVProvider(configuration: dav, profile: profile, dialect: dialect, authenticator: authenticator)
        await provider.verification?.loadRemembered()
        return provider
    }

    /// Recognises a server by `status.php` (under the URL's path, then at the origin) whose product is this flavor.
    public func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? {
        let executor = context.executor()
        guard let endpoints = try? Self.endpoints(url) else { return nil }
        var candidates = [endpoints.serverRoot]
        if var origin = URLComponents(url: endpoints.serverRoot, resolvingAgainstBaseURL: false), origin.percentEncodedPath != "/" {
            origin.percentEncodedPath = "/"
            if let root = origin.url { candidates.append(root) }
        }
        for root in candidates {
            guard let status = await Self.fetchStatus(root, executor: executor), status.installed else { continue }
            guard status.flavor == flavor else { return nil }
            var components = URLComponents(url: root, resolvingAgainstBaseURL: false)
            components?.scheme = url.scheme?.lowercased() == "https" ? flavor.rawValue + "s" : flavor.rawValue
            let product = status.productName ?? flavor.rawValue
            return ProbeResult(
                kind: kind, confidence: 90, detail: "status.php: \(product) \(status.versionString ?? status.version ?? "")",
                url: components?.url ?? root)
        }
        return nil
    }

    // MARK: Helpers

    /// A DAV profile for servers of this family, used before (or instead of) probing.
    static let assumedProfile = WebDAVServerProfile(
        davClasses: ["1", "3"], server: nil, reportsQuota: true, honoursPreconditions: true, reportsETags: true,
        reportsContentTypes: true)

    /// `features` with what `webdav` says over the server's word.
    static func override(_ features: inout OwnCloudServerFeatures, _ webdav: WebDAVProvider.Configuration) {
        if let value = webdav.chunking { features.chunking = value }
        if let value = webdav.search { features.search = value }
    }

    static func dialect(
        _ flavor: WebDAVDialect.Flavor, _ serverRoot: URL, _ user: String, _ version: String?,
        _ features: OwnCloudServerFeatures, _ webdav: WebDAVProvider.Configuration
    ) -> WebDAVDialect {
        WebDAVDialect(
            flavor: flavor, serverRoot: serverRoot, user: user, version: version, features: features,
            chunkThreshold: webdav.chunkThreshold ?? webdav.chunkSize, chunkSize: webdav.chunkSize)
    }

    /// `GET status.php`, unauthenticated; `nil` when it is not there or not a status object.
    static func fetchStatus(_ serverRoot: URL, executor: RequestExecutor) async -> OwnCloudStatus? {
        guard let url = URL(string: serverRoot.absoluteString + "status.php") else { return nil }
        var anonymous = executor
        anonymous.authenticator = NoAuthenticator()
        guard let response = try? await anonymous.execute(TransportRequest(method: .GET, url: url)) else { return nil }
        guard response.status == 200, let body = try? await response.body.collect(upTo: 64 << 10) else {
            await response.body.discard()
            return nil
        }
        return try? OwnCloudStatus(json: Data(body.readableBytesView))
    }
}

extension WebDAVProvider {
    /// Whether the server answers a one-result `SEARCH` of the user's root with a multistatus.
    func searchAnswers() async -> Bool {
        guard let dialect else { return false }
        let compiled = DAVSearchCompiler.Compiled(scope: .root, condition: nil)
        let scope = "/files/\(dialect.user)" + userPath(for: .root)
        let body = DAVSearchCompiler.body(
            compiled, scopeHref: scope.hasSuffix("/") ? String(scope.dropLast()) : scope, properties: "<d:resourcetype/>", limit: 1)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/xml; charset=utf-8")
        let request = TransportRequest(
            method: HTTPMethod(rawValue: "SEARCH"), url: dialect.url("remote.php/dav/"), headers: headers,
            body: .bytes(ByteBuffer(string: body)), isIdempotent: true)
        guard let response = try? await executor.execute(request) else { return false }
        await response.body.discard()
        return response.status == 207
    }
}
