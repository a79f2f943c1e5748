import ArgumentParser
import Foundation
import Logging
import ProviderAPI
import WebDAVProvider

/// Options every command takes: credentials, output format, logging, remotes.
struct GlobalOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "User name (or put it in the URL: webdav://user@host/).")
    var user: String?

    @Option(name: .long, help: "Read the password from this file (else STRATA_PASSWORD).")
    var passwordFile: String?

    @Flag(name: .long, help: "Send STRATA_TOKEN as a bearer token instead of a password.")
    var bearer = false

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: [.short, .long], help: "Log each request to stderr (secrets removed).")
    var verbose = false

    @Option(name: .long, help: "A JSON file of saved remotes (default ~/.config/strata/remotes.json).")
    var remotes: String?

    func credentials(for url: URL) throws -> Credentials {
        let environment = ProcessInfo.processInfo.environment
        if bearer {
            guard let token = environment["STRATA_TOKEN"], !token.isEmpty else {
                throw ValidationError("--bearer needs the STRATA_TOKEN environment variable")
            }
            return .bearer(accessToken: token, refreshToken: nil)
        }
        let name = user ?? url.user.flatMap { $0.removingPercentEncoding } ?? environment["STRATA_USER"]
        guard let name, !name.isEmpty else { return .none }
        var password = environment["STRATA_PASSWORD"] ?? ""
        if let passwordFile {
            password = try String(contentsOfFile: passwordFile, encoding: .utf8)
                .trimmingCharacters(in: .newlines)
        }
        return .basic(username: name, password: password)
    }

    var logger: Logger {
        var logger = Logger(label: "strata") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }

    func registry() throws -> ProviderRegistry {
        let registry = ProviderRegistry()
        registry.register(WebDAVProviderFactory())
        let file = remotes.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/strata/remotes.json")
        try registry.loadRemotes(from: file)
        return registry
    }

    /// The provider and path a target names: a URL (`webdav://host/a/b`) or a saved remote (`name:/a/b`).
    func open(_ target: String) async throws -> (provider: any StorageProvider, path: ItemPath) {
        let registry = try registry()
        if let colon = target.firstIndex(of: ":"), !target[colon...].hasPrefix("://") {
            let name = String(target[..<colon])
            if registry.remote(named: name) != nil {
                let path = try ItemPath(String(target[target.index(after: colon)...]))
                let store = FileCredentialStore(
                    url: FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/strata/credentials.json"))
                let provider = try await registry.makeProvider(remote: name, store: store, logger: logger)
                return (provider, path)
            }
        }
        guard let url = URL(string: target), url.scheme != nil else {
            throw ValidationError("not a URL or saved remote: \(target)")
        }
        return try await registry.connect(url, credentials: try credentials(for: url), logger: logger)
    }
}
