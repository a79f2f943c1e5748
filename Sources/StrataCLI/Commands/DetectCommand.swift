import ArgumentParser
import Foundation
import ProviderAPI
import WebDAVProvider

/// One adapter that fits, as `strata detect --json` prints it; a WebDAV server (or its
/// ownCloud/Nextcloud dialect) with its profile: what the probe read and what was verified.
struct DetectedServer: Encodable {
    var kind: String
    var confidence: String
    var detail: String
    var url: String
    /// The WebDAV profile: DAV classes, `Server`, the starting guesses and the verdicts kept
    /// from an earlier write (`verified`; empty until a write verified them).
    var profile: WebDAVServerProfile?
    /// The capabilities the profile gives the provider now.
    var features: [String]?
    /// Whether the provider now tells names apart by case (`false` until a write verified that the
    /// server does: see `WebDAVVerifiedBehaviour.nameCase`).
    var caseSensitive: Bool?
    /// Whether uploads go through a temporary name (the server keeps cut uploads, or it is not verified yet).
    var uploadsThroughTemporary: Bool?
    /// Why the profile could not be read (a refused login, say).
    var profileError: String?
}

struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect", abstract: "Probe an http(s) server and say which adapter fits it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The server, e.g. http://127.0.0.1:8081/") var url: String

    func run() async throws {
        guard let parsed = URL(string: url) else { throw ValidationError("not a URL: \(TargetText.redacted(url))") }
        let results = try await global.registry().detect(
            parsed, credentials: try global.credentials(for: parsed), transport: try global.transport())
        if global.json {
            var entries: [DetectedServer] = []
            for result in results { entries.append(await describe(result, url: parsed)) }
            try Output.json(entries)
            return
        }
        guard !results.isEmpty else { throw ProviderError(.unsupported, "no registered adapter recognises \(Redactor.redact(url))") }
        for result in results {
            Output.rawLine(
                [result.kind, "\(result.confidence)", result.url.absoluteString, result.detail].map(TerminalText.escape).joined(separator: "\t"))
        }
    }

    /// `result` with the WebDAV profile of the server where the adapter is WebDAV (connecting
    /// reads the verdicts kept in the cache folder; nothing is written).
    private func describe(_ result: ProbeResult, url: URL) async -> DetectedServer {
        var entry = DetectedServer(
            kind: result.kind, confidence: "\(result.confidence)", detail: result.detail, url: result.url.absoluteString)
        do {
            let registry = try global.registry()
            let factory = registry.factory(kind: result.kind)
            guard factory is WebDAVProviderFactory || factory is OwnCloudProviderFactory else { return entry }
            let (provider, _) = try await registry.connect(
                result.url, credentials: try global.credentials(for: url), options: try global.providerOptions(),
                transport: try global.transport(), logger: global.logger, retry: try global.retryPolicy())
            guard let dav = provider as? WebDAVProvider else { return entry }
            entry.profile = dav.profile
            entry.features = Capabilities.Features.named.filter { dav.capabilities.features.contains($0.feature) }.map(\.name)
            entry.uploadsThroughTemporary = dav.profile.uploadsThroughTemporary
            entry.caseSensitive = dav.capabilities.names.caseSensitive
        } catch let error as ProviderError {
            entry.profileError = error.message ?? "\(error.code)"
        } catch {
            entry.profileError = "\(error)"
        }
        return entry
    }
}
