import Foundation
import ProviderAPI
import HTTPProviderKit

/// How a ``NuxeoProvider`` talks to its server, read from a `ProviderConfiguration`.
///
/// The URL is `http(s)://host[:port]/<context path>/<root document path>`, such as
/// `https://demo.example.com/nuxeo/default-domain/workspaces/Reports`; the context path is the
/// first segment of the URL's path unless the `contextPath` option says otherwise (`/` for none). Options:
///
/// | option | meaning | default |
/// |---|---|---|
/// | `contextPath` | the web application's path | the URL's first segment |
/// | `repository` | the repository, sent as `X-NXRepository` | `default` |
/// | `auth` | `basic`, or `token` to acquire an `X-Authentication-Token` with the password | `basic` |
/// | `application`, `deviceId`, `deviceDescription`, `permission` | the token request | `Strata`, stable id, host name, `rw` |
/// | `schemas` | comma list for the `properties` header | `*` |
/// | `enrichers` | comma list of document enrichers for every request | none |
/// | `chunkSize` | bytes per chunk of a chunked upload; larger files are sent in chunks | 8 MiB |
/// | `delete` | `permanent`, or `trash` to move deleted documents to the trash | `permanent` |
/// | `pageSize` | page size when listing everything | 1000 |
/// | `maxPages`, `maxEntries` | ceilings of every page loop (`PageLimits`) | 100000, 10000000 |
/// | `changes` | `drive` (Nuxeo Drive's change summary, registering the root as a synchronization root), `query` (a `dc:modified` query), or `auto`: Drive when the server has it and the root is already a synchronization root | `auto` |
public struct NuxeoProviderSettings: Sendable, Hashable {
    /// The server URL with its context path, such as `https://host/nuxeo`.
    public var baseURL: URL
    /// The provider root as an absolute repository path, such as `/default-domain/workspaces/Reports`.
    public var rootPath: String
    /// Headers for every request.
    public var defaults: NuxeoRequestDefaults
    /// Whether to acquire and send a token instead of the password.
    public var usesTokenAuthentication: Bool
    /// The token request, when tokens are used.
    public var tokenRequest: NuxeoTokenRequest
    /// Bytes per chunk; files larger than this go in chunks.
    public var chunkSize: Int
    /// Whether ``NuxeoProvider/delete(_:)`` trashes instead of deleting.
    public var deleteMovesToTrash: Bool
    /// Page size when a listing has no limit.
    public var pageSize: Int
    /// Where ``NuxeoProvider/changes(since:)`` reads changes from.
    public var changeFeed: NuxeoChangeFeed

    /// Reads the settings from `configuration`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not http(s) or an option that is malformed.
    public init(_ configuration: ProviderConfiguration) throws {
        let url = configuration.url
        try URLChecks.requireValidPort(url)
        let options = configuration.options
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw ProviderError(.invalidArgument, "a Nuxeo URL is http(s)://host/nuxeo/path, not \(Redactor.redact(url: url))")
        }
        let segments = components.path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let contextSegments = options["contextPath"].map { $0.split(separator: "/").map(String.init) } ?? Array(segments.prefix(1))
        guard segments.starts(with: contextSegments) else {
            throw ProviderError(
                .invalidArgument, "the URL path does not start with the context path /\(contextSegments.joined(separator: "/"))")
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        components.percentEncodedPath = contextSegments.isEmpty ? "" : "/" + contextSegments.map(PercentEncoding.formEncode).joined(separator: "/")
        guard let base = components.url else { throw ProviderError(.invalidArgument, "not a URL: \(Redactor.redact(url: url))") }
        baseURL = base
        rootPath = "/" + segments.dropFirst(contextSegments.count).joined(separator: "/")

        var defaults = NuxeoRequestDefaults(repository: options["repository"] ?? "default")
        if let schemas = options["schemas"] { defaults.schemas = Self.list(schemas) }
        if let enrichers = options["enrichers"] { defaults.enrichers = Self.list(enrichers) }
        self.defaults = defaults

        switch options["auth"]?.lowercased() ?? "basic" {
        case "basic": usesTokenAuthentication = false
        case "token": usesTokenAuthentication = true
        case let other: throw ProviderError(.invalidArgument, "the auth option is basic or token, not \(other)")
        }
        tokenRequest = NuxeoTokenRequest(
            application: options["application"] ?? "Strata", deviceId: options["deviceId"],
            deviceDescription: options["deviceDescription"], permission: options["permission"] ?? "rw",
            user: configuration.credentials.username)
        chunkSize = try Self.integer(options["chunkSize"], name: "chunkSize", default: 8 << 20, minimum: 1024)
        pageSize = try Self.integer(options["pageSize"], name: "pageSize", default: 1000, minimum: 1)
        guard let feed = NuxeoChangeFeed(rawValue: options["changes"]?.lowercased() ?? "auto") else {
            throw ProviderError(.invalidArgument, "the changes option is auto, drive or query, not \(options["changes"] ?? "")")
        }
        changeFeed = feed
        switch options["delete"]?.lowercased() ?? "permanent" {
        case "permanent": deleteMovesToTrash = false
        case "trash": deleteMovesToTrash = true
        case let other: throw ProviderError(.invalidArgument, "the delete option is permanent or trash, not \(other)")
        }
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func integer(_ text: String?, name: String, default value: Int, minimum: Int) throws -> Int {
        guard let text else { return value }
        guard let parsed = Int(text), parsed >= minimum else {
            throw ProviderError(.invalidArgument, "the \(name) option must be a whole number of at least \(minimum), not \(text)")
        }
        return parsed
    }
}

/// Where a ``NuxeoProvider`` reads its change feed from.
public enum NuxeoChangeFeed: String, Sendable, Hashable {
    /// Nuxeo Drive's change summary when the server has the Drive add-on and the root is a
    /// synchronization root; otherwise a `dc:modified` query.
    case auto
    /// Nuxeo Drive's change summary; the root is registered as a synchronization root.
    case drive
    /// A `dc:modified` query under the root.
    case query
}
