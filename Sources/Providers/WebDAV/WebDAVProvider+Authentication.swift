import Foundation
import HTTPProviderKit
import ProviderAPI

extension WebDAVProvider.Configuration {
    /// The authenticator of `configuration`'s credentials under ``auth``: a user name and password
    /// go through a `PasswordAuthenticator` (Basic until the server asks for Digest; with
    /// `auth=digest`, Digest only; `remembered`, nothing until the server's challenge), which
    /// remembers in `configuration.serverFacts` that the server wants Digest; other credentials
    /// as `ProviderConfiguration.httpAuthenticator()` sends them (an OAuth2 login renewed through
    /// the configuration's transport and saved back through its services).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for `auth=digest` without a user name and password.
    func authenticator(for configuration: ProviderConfiguration, remembered: Bool = false) throws -> any Authenticator {
        guard let username = configuration.credentials.username, let password = configuration.credentials.password else {
            if auth == .digest {
                throw ProviderError(.invalidArgument, "auth=digest needs a user name and password (--user, and a password)")
            }
            return configuration.httpAuthenticator()
        }
        let policy: PasswordAuthenticator.Policy = auth == .digest ? .digestOnly : remembered ? .challengeFirst : .automatic
        var onDigest: (@Sendable () async -> Void)?
        if let memory = WebDAVDigestMemory(configuration) { onDigest = { await memory.remember() } }
        return PasswordAuthenticator(username: username, password: password, policy: policy, onDigest: onDigest)
    }

    /// ``authenticator(for:remembered:)``, after asking `configuration.serverFacts` whether this
    /// server was seen to want Digest.
    func authenticator(connecting configuration: ProviderConfiguration) async throws -> any Authenticator {
        let remembered = await WebDAVDigestMemory(configuration)?.isRemembered() ?? false
        return try authenticator(for: configuration, remembered: remembered)
    }
}

/// That a server (its root URL, without credentials) wants HTTP Digest from a user, kept in a
/// `ServerFactStore` so that the next process sends the password in Basic no more. Trusted for
/// ``trustedFor``; a server that went back to Basic costs one unanswered request per connection
/// until then (`PasswordAuthenticator.Policy.challengeFirst` falls back to Basic).
struct WebDAVDigestMemory: Sendable {
    static let factKind = "webdav.auth"
    static let trustedFor: TimeInterval = 30 * 24 * 3600
    let store: any ServerFactStore
    let server: String
    let user: String

    init?(_ configuration: ProviderConfiguration) {
        guard let store = configuration.serverFacts, let user = configuration.credentials.username,
            var components = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false)
        else { return nil }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        self.store = store
        self.server = components.string ?? Redactor.redact(url: configuration.url)
        self.user = user
    }

    func isRemembered() async -> Bool {
        guard let fact = try? await store.fact(Self.factKind, server: server, user: user) else { return false }
        return String(decoding: fact.value, as: UTF8.self) == "digest" && Date().timeIntervalSince(fact.learntAt) < Self.trustedFor
    }

    func remember() async {
        try? await store.remember(ServerFact(kind: Self.factKind, server: server, user: user, value: Data("digest".utf8)))
    }
}
