import ArgumentParser
import Foundation
import HTTPProviderKit
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
    /// from an earlier write (`verified`: the string `not verified yet` until a write or
    /// `detect --verify` verified them).
    var profile: JSONValue?
    /// `verified`, `partly verified` or `not verified yet`: how much of ``profile`` was shown by writing.
    var verification: String?
    /// Whether the server refused the probe without a login (HTTP 401/403): the adapter fits, the
    /// credentials are missing or wrong.
    var signInNeeded: Bool?
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
    @Flag(help: "Run the WebDAV capability verifier now, in a scratch folder it removes after, and print its verdict.")
    var verify = false

    func run() async throws {
        guard let parsed = URL(string: url) else { throw ValidationError("not a URL: \(TargetText.redacted(url))") }
        let results = try await global.registry().detect(
            parsed, credentials: try global.credentials(for: parsed), services: .transport(try global.transport()))
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
        guard verify else { return }
        for result in results {
            let entry = await describe(result, url: parsed)
            guard entry.profile != nil || entry.profileError != nil || entry.signInNeeded == true else { continue }
            if let error = entry.profileError {
                Output.line("\(result.kind): not verified: \(error)")
                continue
            }
            Output.line("\(result.kind): \(entry.verification ?? "not verified yet")")
            if case .object(let profile)? = entry.profile, case .object(let verdict)? = profile["verified"] {
                for key in verdict.keys.sorted() {
                    Output.line("  \(key): \(Self.text(verdict[key] ?? .null))")
                }
            }
        }
    }

    /// A verdict's value as one line of text.
    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return "unknown"
        case .bool(let flag): return flag ? "yes" : "no"
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let string): return string
        case .array(let values): return "[" + values.map(text).joined(separator: ", ") + "]"
        case .object(let fields): return "{" + fields.keys.sorted().map { "\($0): \(text(fields[$0] ?? .null))" }.joined(separator: ", ") + "}"
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
            let (provider, _) = try await registry.provider(
                for: result.url, credentials: try global.credentials(for: url), options: try global.providerOptions(),
                services: .transport(try global.transport()), logger: global.logger, retry: try global.retryPolicy())
            guard let dav = provider as? WebDAVProvider else { return entry }
            var profile = dav.profile
            if verify, let verdict = await WebDAVCapabilityVerifier(provider: dav).verify(in: .root) {
                profile.verified = verdict
            } else if verify {
                entry.profileError = "the verifier could not create its scratch folder (a read-only server or a refused login)"
            }
            entry.verification = profile.verified.isComplete ? "verified" : profile.verified == .unverified ? "not verified yet" : "partly verified"
            var shown = try JSONDecoder().decode(JSONValue.self, from: Output.jsonEncoder().encode(profile))
            if profile.verified == .unverified, case .object(var fields) = shown {
                fields["verified"] = .string("not verified yet")
                shown = .object(fields)
            }
            entry.profile = shown
            entry.features = Capabilities.Features.named.filter { dav.capabilities.features.contains($0.feature) }.map(\.name)
            entry.uploadsThroughTemporary = dav.profile.uploadsThroughTemporary
            entry.caseSensitive = dav.capabilities.names.caseSensitive
        } catch let error as ProviderError {
            if error.code == .unauthorized || error.code == .forbidden || result.detail.hasPrefix(WebDAVProviderFactory.signInNeeded) {
                entry.signInNeeded = true
            }
            entry.profileError = error.message ?? "\(error.code)"
        } catch {
            entry.profileError = "\(error)"
        }
        return entry
    }
}
