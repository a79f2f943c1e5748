import Foundation
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// Registers the WebDAV adapter: schemes `webdav` (http) and `webdavs` (https),
/// and recognition of unknown servers by the `DAV` header of `OPTIONS`.
///
/// ```swift
/// registry.register(WebDAVProviderFactory())
/// ```
public struct WebDAVProviderFactory: ProviderFactory {
    public var kind: String { "webdav" }
    public var schemes: [String: String] { ["webdav": "http", "webdavs": "https", "dav": "http", "davs": "https"] }

    /// Creates the factory.
    public init() {}

    /// A provider with the capabilities of a generic RFC 4918 server; use ``connect(_:)`` to probe them.
    /// The string options are read into a ``WebDAVProvider/Configuration`` here, once.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, or an option that is malformed or unknown.
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        let (common, webdav) = try WebDAVProvider.reading(configuration)
        return try WebDAVProvider(configuration: common, authenticator: try webdav.authenticator(for: common))
    }

    /// A provider whose capabilities were probed from the server. The string options are read into a
    /// ``WebDAVProvider/Configuration`` here, once; `-o dialect=nextcloud` (or `owncloud`) speaks the
    /// ownCloud/Nextcloud dialect to this server.
    public func connect(_ configuration: ProviderConfiguration) async throws -> any StorageProvider {
        let (common, webdav) = try WebDAVProvider.reading(configuration)
        return try await WebDAVProvider.connect(common, webdav: webdav)
    }

    /// The root is the server's origin, except below an ownCloud/Nextcloud `remote.php/dav/files/USER/`
    /// or `remote.php/webdav/`, which is the root of the user's files (see ``OwnCloudProviderFactory/locate(_:)``).
    public func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        if url.path.contains("/remote.php/") { return try OwnCloudProviderFactory().locate(url) }
        return try locate(url, rootSegments: 0)
    }

    public func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? {
        let executor = context.executor()
        let request = TransportRequest(method: .OPTIONS, url: url)
        guard let response = try? await executor.execute(request) else { return nil }
        await response.body.discard()
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.scheme = url.scheme?.lowercased() == "https" ? "webdavs" : "webdav"
        let server = response.headers.first(name: "server").map { " (\($0))" } ?? ""
        let dav = response.headers.first(name: "dav")
        if response.status == 401 || response.status == 403 {
            // A server that wants a login often says it is WebDAV before any: a `DAV` header on
            // the refusal, or a realm naming WebDAV in its challenge.
            let realm = response.headers[canonicalForm: "www-authenticate"].map(String.init).first { Self.namesWebDAV($0) }
            guard dav != nil || realm != nil else { return nil }
            let seen = dav.map { "DAV: \($0)" } ?? realm.map { "WWW-Authenticate: \($0)" } ?? ""
            return ProbeResult(
                kind: kind, confidence: 40, detail: "\(Self.signInNeeded) (HTTP \(response.status); \(seen))\(server)",
                url: components?.url ?? url)
        }
        guard let dav, dav.contains("1") || dav.contains("2") else { return nil }
        return ProbeResult(
            kind: kind, confidence: 50, detail: "DAV: \(dav)\(server)", url: components?.url ?? url)
    }

    /// How a probe's detail starts when the server is WebDAV but refused the request without a login.
    package static let signInNeeded = "sign-in needed"

    /// Whether a `WWW-Authenticate` challenge names WebDAV in its realm (`realm="WebDAV"`, `realm="Restricted DAV"`).
    static func namesWebDAV(_ challenge: String) -> Bool {
        guard let realmStart = challenge.range(of: "realm=", options: .caseInsensitive) else { return false }
        let realm = challenge[realmStart.upperBound...].prefix { $0 != "," }
        return realm.range(of: "dav", options: .caseInsensitive) != nil
    }
}
