import ArgumentParser
import Foundation
import HTTPProviderKit
import ProviderAPI

/// `strata login` for a server without a browser sign-in: the user and password (or bearer token)
/// from the options, the environment or the terminal, checked with the server before they are saved.
struct PasswordLogin {
    let global: GlobalOptions

    func signIn(_ target: LoginTarget, registry: ProviderRegistry) async throws -> Credentials {
        let credentials = try read(target)
        try await check(credentials, target, registry: registry)
        return credentials
    }

    /// The login: `--bearer` with STRATA_TOKEN; else the user of `--user`, the URL, STRATA_USER or a
    /// prompt, and the password of `--password-file`, STRATA_PASSWORD or a prompt without echo.
    func read(_ target: LoginTarget) throws -> Credentials {
        if global.bearer { return try global.credentials(for: target.wireURL) }
        let environment = ProcessInfo.processInfo.environment
        let given = global.login.user ?? target.urlUser ?? environment["STRATA_USER"]
        guard let user = given.flatMap({ $0.isEmpty ? nil : $0 }) ?? PasswordPrompt.line("User for \(target.name): "),
            !user.isEmpty
        else {
            throw ValidationError("strata login needs a user: give --user NAME (or STRATA_USER)")
        }
        var password = environment["STRATA_PASSWORD"] ?? ""
        if let file = global.passwordFile {
            password = try FileErrorText.doing("read the password file") {
                try String(contentsOfFile: file, encoding: .utf8)
            }.trimmingCharacters(in: .newlines)
        }
        if password.isEmpty, let typed = PasswordPrompt.secret("Password for \(user) on \(target.name): ") {
            password = typed
        }
        guard !password.isEmpty else {
            throw ValidationError("no password for \(TerminalText.escape(user)): type it on a terminal, or give it in STRATA_PASSWORD or --password-file")
        }
        return .basic(username: user, password: password)
    }

    /// Asks the server for the remote's root with `credentials` (the provider made without probing,
    /// so that one request decides): a refusal is `unauthorized`, and nothing is saved.
    func check(_ credentials: Credentials, _ target: LoginTarget, registry: ProviderRegistry) async throws {
        var remote = target.remote
        remote.options.merge(try global.providerOptions()) { _, new in new }
        registry.addRemote(remote)
        let store = InMemoryCredentialStore()
        try await store.setCredentials(credentials, for: remote.name)
        let provider = try await registry.provider(
            remote: remote.name, store: store, services: .transport(try global.transport()), probe: false, logger: global.logger,
            retry: try global.retryPolicy(), timeouts: try global.timeouts(), onRetry: global.retryPrinter)
        do {
            _ = try await provider.item(at: .root)
        } catch let failure as ProviderError where failure.code == .unauthorized || failure.code == .forbidden {
            throw ProviderError(
                .unauthorized, "the server refused the login of \(credentials.username ?? "the token"): nothing was saved",
                httpStatus: failure.httpStatus)
        }
    }
}
