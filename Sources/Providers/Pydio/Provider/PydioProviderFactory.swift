import Foundation
import ProviderAPI
import HTTPProviderKit

/// Registers the Pydio adapter: schemes `pydio` (http) and `pydios` (https), and recognition of
/// Pydio servers by their `get_seed` answer.
///
/// A URL names the server's base path, the workspace (id or slug) and a path inside it:
/// `pydios://files.example.com/pydio/my-files/Reports/q3.pdf`.
///
/// ```swift
/// registry.register(PydioProviderFactory())
/// ```
public struct PydioProviderFactory: ProviderFactory {
    public var kind: String { "pydio" }
    public var schemes: [String: String] { ["pydio": "http", "pydios": "https"] }

    /// Creates the factory.
    public init() {}

    /// A provider that signs in on its first call; the string options are read into a
    /// ``PydioProvider/Configuration`` here, once.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a malformed URL, an option that is
    ///   malformed or unknown, or credentials that are not a user name and password.
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        let (common, pydio) = try PydioProvider.reading(configuration)
        return try PydioProvider(configuration: common, pydio: pydio)
    }

    /// A signed-in provider whose workspace and root were checked; the string options are read
    /// into a ``PydioProvider/Configuration`` here, once.
    public func connect(_ configuration: ProviderConfiguration) async throws -> any StorageProvider {
        let (common, pydio) = try PydioProvider.reading(configuration)
        return try await PydioProvider.connect(common, pydio: pydio)
    }

    /// The root is the workspace (`/<base>/<workspace>/`); the path is the rest of the URL.
    public func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        try locate(url, rootSegments: 2)
    }

    /// A Pydio server answers `index.php?get_action=get_seed` with a plain-text seed (`-1` on 7/8)
    /// or the captcha JSON; the base path is the URL's first segment, or `/pydio`.
    public func probe(_ url: URL, context: ProbeContext) async -> ProbeResult? {
        let executor = context.executor()
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let first = components.percentEncodedPath.split(separator: "/").first.map(String.init) ?? "pydio"
        components.percentEncodedPath = "/" + first + "/index.php"
        components.percentEncodedQuery = "get_action=get_seed"
        guard let seedURL = components.url,
            let response = try? await executor.execute(TransportRequest(method: .GET, url: seedURL)),
            let body = try? await response.body.collect(upTo: 4096)
        else { return nil }
        let answer = RecognizableAnswer(status: response.status, headers: response.headers, body: Data(body.readableBytesView))
        guard response.status == 200, case .value(let seed)? = try? PydioRecognizers.seed.recognize(answer) else { return nil }
        let text: String
        switch seed {
        case .seed(let value): text = value
        case .captchaRequired: text = "captcha"
        }
        guard text == "-1" || text == "captcha" || text.allSatisfy(\.isHexDigit) else { return nil }
        components.percentEncodedPath = "/" + first + "/"
        components.percentEncodedQuery = nil
        components.scheme = url.scheme?.lowercased() == "https" ? "pydios" : "pydio"
        return ProbeResult(kind: kind, confidence: 80, detail: "Pydio get_seed answered \(text)", url: components.url ?? url)
    }
}
