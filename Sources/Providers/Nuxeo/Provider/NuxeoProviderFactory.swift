import Foundation
import ProviderAPI
import HTTPProviderKit

/// Registers the Nuxeo adapter: schemes `nuxeo` (http) and `nuxeos` (https), and recognition
/// of Nuxeo servers by their REST API.
///
/// A URL names the server, its context path and a document below the repository root:
/// `nuxeos://demo.example.com/nuxeo/default-domain/workspaces/Reports/q3.pdf`. Segments match
/// a document's title or, failing that, its server name.
///
/// ```swift
/// registry.register(NuxeoProviderFactory())
/// ```
public struct NuxeoProviderFactory: ProviderFactory {
    public var kind: String { "nuxeo" }
    public var schemes: [String: String] { ["nuxeo": "http", "nuxeos": "https"] }

    /// Creates the factory.
    public init() {}

    /// A provider without talking to the server; the string options are read into a
    /// ``NuxeoProvider/Configuration`` here, once.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, or an option that is malformed or unknown.
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        let (common, nuxeo) = try NuxeoProvider.reading(configuration)
        return try NuxeoProvider(configuration: common, nuxeo: nuxeo)
    }

    /// A provider whose root document and credentials were checked; the string options are read
    /// into a ``NuxeoProvider/Configuration`` here, once.
    public func connect(_ configuration: ProviderConfiguration) async throws -> any StorageProvider {
        let (common, nuxeo) = try NuxeoProvider.reading(configuration)
        return try await NuxeoProvider.connect(common, nuxeo: nuxeo)
    }

    /// The root is the server's context path (the repository root); the path is the rest of the URL.
    public func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        try locate(url, rootSegments: 1)
    }

    /// A Nuxeo server answers `GET {context}/api/v1/me` with a `user` entity (with credentials),
    /// or `runningstatus` without them; the context path defaults to `/nuxeo`.
    public func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? {
        let executor = context.executor()
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let first = components.percentEncodedPath.split(separator: "/").first.map(String.init) ?? "nuxeo"
        components.percentEncodedPath = "/" + first
        components.query = nil
        guard let base = components.url else { return nil }
        var probe = executor
        probe.defaultHeaders.replaceOrAdd(name: "Accept", value: "application/json")
        probe.defaultHeaders.replaceOrAdd(name: "X-No-Basic-Header", value: "true")
        var detail: String?
        var confidence = 0
        if let response = try? await probe.execute(TransportRequest(method: .GET, url: base.appendingPathComponent("api/v1/me"))) {
            let body = (try? await response.body.collect(upTo: 1 << 20)).map { Data($0.readableBytesView) }
            if response.status == 200, let body, let json = try? NuxeoJSON.parse(body), json["entity-type"]?.stringValue == "user" {
                detail = "Nuxeo REST API (signed in as \(json["id"]?.stringValue ?? "?"))"
                confidence = 90
            }
        }
        if detail == nil, let response = try? await probe.execute(TransportRequest(method: .GET, url: base.appendingPathComponent("runningstatus"))) {
            await response.body.discard()
            if response.status == 200, let automation = try? await probe.execute(TransportRequest(method: .GET, url: base.appendingPathComponent("api/v1/path/"))) {
                let type = automation.headers.first(name: "content-type") ?? ""
                await automation.body.discard()
                if automation.status == 401 || type.contains("json") {
                    detail = "Nuxeo runningstatus and REST API (HTTP \(automation.status))"
                    confidence = 60
                }
            }
        }
        guard let detail else { return nil }
        components.scheme = url.scheme?.lowercased() == "https" ? "nuxeos" : "nuxeo"
        return ProbeResult(kind: kind, confidence: confidence, detail: detail, url: components.url ?? url)
    }
}
