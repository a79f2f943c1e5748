import ArgumentParser
import Foundation
import HTTPProviderKit
import ProviderAPI

/// `strata logout NAME`: forgets a remote's saved login, revoking an app password on the server first.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Remove a remote's saved login (revoking a Nextcloud app password on the server first).",
        discussion: """
            The remote itself stays (`strata remote remove` removes both). An app password from \
            `strata login` (Nextcloud Login Flow v2) is first revoked on the server \
            (DELETE ocs/v2.php/core/apppassword), so that it stops working everywhere. When that \
            fails (no network, an error of the server), the login stays saved and the command fails: \
            run it again later, or add --force to forget it here anyway (it then stays valid on the \
            server until revoked in its Security settings). An OAuth2 login is revoked the same way \
            (RFC 7009: its refresh token, then its access token) at the revocation endpoint that \
            -o oauth2.revoke-url names, given to `login` (kept with a new remote) or to this command; \
            without one (Nextcloud, ownCloud and Nuxeo document none) it is only forgotten here, and \
            the command says so. --keep-on-server forgets it here without asking the server. Other \
            logins (passwords, tokens) are only forgotten here.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The remote's name.") var name: String
    @Flag(name: .long, help: "Forget the login here without revoking it on the server.") var keepOnServer = false
    @Flag(name: .long, help: "Forget the login here even when revoking it on the server fails.") var force = false

    func run() async throws {
        let name = self.name.hasSuffix(":") ? String(self.name.dropLast()) : self.name
        let registry = try RemoteCommand.registry(global.remotesFile)
        let remote = registry.remote(named: name)
        let store = LoginCommand.savedLogins()
        let saved = try await store.credentials(for: name)
        guard let saved, saved != .none else {
            guard remote != nil else { throw ValidationError("no remote named \(TerminalText.escape(name)) and no login saved for it") }
            try report(LogoutSummary(remote: name, removed: false, revoked: nil), text: "\(name): no login saved")
            return
        }
        var revoked: Bool?
        var note = ""
        if saved.kind == .appPassword, !keepOnServer {
            do {
                revoked = try await revoke(saved, remote: remote) == .revoked
                note = revoked == true ? " (app password revoked on the server)" : " (the server refused the app password already)"
            } catch {
                let reason = Strata.printable(error)
                guard force else {
                    throw PrintedError(
                        description: "could not revoke the app password on the server (\(reason)): the login stays saved; try again, or add --force to forget it here anyway")
                }
                Output.error("strata: could not revoke the app password on the server (\(reason)); forgetting it here anyway: revoke it in the server's Security settings")
                revoked = false
                note = " (NOT revoked on the server)"
            }
        } else if saved.kind == .oauth2, !keepOnServer {
            do {
                var options = remote?.options ?? [:]
                options.merge(try global.providerOptions()) { _, new in new }
                revoked = try await OAuth2Login.revoke(saved, options: options, transport: try global.transport()) ? true : nil
                note = revoked == true
                    ? " (tokens revoked on the server)"
                    : " (tokens NOT revoked: no revocation endpoint is known; -o \(OAuth2Login.Option.revokeURL)=URL names one)"
            } catch {
                let reason = Strata.printable(error)
                guard force else {
                    throw PrintedError(
                        description: "could not revoke the OAuth2 tokens on the server (\(reason)): the login stays saved; try again, or add --force to forget it here anyway")
                }
                Output.error("strata: could not revoke the OAuth2 tokens on the server (\(reason)); forgetting them here anyway")
                revoked = false
                note = " (NOT revoked on the server)"
            }
        } else if saved.kind == .appPassword || saved.kind == .oauth2 {
            note = " (still valid on the server)"
        }
        try await store.setCredentials(nil, for: name)
        try report(LogoutSummary(remote: name, removed: true, revoked: revoked), text: "logged out of \(name)\(note)")
    }

    private func revoke(_ credentials: Credentials, remote: SavedRemote?) async throws -> NextcloudLoginFlow.Revocation {
        guard let remote else {
            throw ProviderError(.notFound, "no remote named \(name) says which server it belongs to")
        }
        let registry = StrataCommandLine.current.registry()
        guard let factory = registry.factory(kind: remote.kind) else {
            throw ProviderError(.unsupported, "the \(remote.kind) adapter is not in this strata")
        }
        var url = remote.url
        if let scheme = url.scheme?.lowercased(), let wire = factory.schemes[scheme],
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            components.scheme = wire
            url = components.url ?? url
        }
        guard NextcloudLoginFlow.isWeb(url), let root = NextcloudLoginFlow.serverRoot(of: url) else {
            throw ProviderError(.invalidArgument, "remote \(remote.name) has no http or https URL")
        }
        return try await NextcloudLoginFlow.revoke(
            credentials, serverRoot: root, transport: try global.transport(), userAgent: LoginCommand.userAgent())
    }

    private func report(_ summary: LogoutSummary, text: String) throws {
        if global.json { try Output.json(summary) } else { Output.line(text) }
    }

    /// What kind of login `credentials` are, in words (never the secret).
    static func describe(_ credentials: Credentials) -> String {
        switch credentials.kind {
        case .appPassword: return "app password"
        case .basic: return "password"
        case .bearer: return "bearer token"
        default: return credentials.kind.rawValue
        }
    }
}

/// What `strata logout --json` prints.
struct LogoutSummary: Encodable {
    var remote: String
    /// Whether a saved login was removed.
    var removed: Bool
    /// Whether the server revoked the app password or the OAuth2 tokens (`nil`: not asked).
    var revoked: Bool?
}
