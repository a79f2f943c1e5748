import ArgumentParser
import Foundation
import HTTPProviderKit
import ProviderAPI

/// `strata login TARGET`: signs in as the server's own clients do, and saves the login under the
/// remote's name (the saved logins of `strata remote add --save-login`).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in to a server and save the login for a remote (name:/path targets).",
        discussion: """
            TARGET is a saved remote's name, or a server URL, which is saved as a remote too (with its -o \
            options): named by --name, else by its host (cloud.example.com, or 127.0.0.1-8080 with a \
            port). A remote of that name for another server is never replaced. Nothing is saved unless \
            the sign-in succeeds.

            Nextcloud (nextcloud://, nextclouds://) signs in with Login Flow v2, as Nextcloud's own clients \
            do: strata prints a link on stderr and opens it in the browser when there is one (xdg-open \
            with DISPLAY or WAYLAND_DISPLAY set, open on macOS; --no-browser only prints it, e.g. to \
            open it on another device). You sign in there and grant access; strata polls the server \
            every 2 seconds until it hands over an app password, for 20 minutes at most, or until \
            Ctrl-C. Your password never reaches strata, and the app password is revocable on its own \
            (strata logout, or the server's Security settings).

            --oauth2 signs in through OAuth2 instead (with --device, the device flow: a code to type on \
            another device).

            Other servers (webdav, ownCloud, Nuxeo, Pydio, …) take the user of --user (or the URL, or \
            STRATA_USER, or a prompt) and the password of STRATA_PASSWORD, --password-file or a prompt \
            without echo on the terminal (--bearer: the token of STRATA_TOKEN); strata checks them with \
            one request before saving them.

            Nothing printed holds the password, the app password or the poll token; the link is fine \
            to show. (For tests: STRATA_LOGIN_POLL_INTERVAL and STRATA_LOGIN_FLOW_LIFETIME, in seconds, \
            change the 2-second poll and the 20-minute wait.)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A saved remote's name, or a server URL (nextclouds://cloud.example.com).") var target: String
    @Option(name: .long, help: ArgumentHelp("The name to save a server URL's remote as (default: its host).", valueName: "name"))
    var name: String?
    @Flag(name: .long, help: "Print the sign-in link without opening a browser.") var noBrowser = false
    @Flag(name: .customLong("oauth2"), help: "Sign in through OAuth2 (authorization code with PKCE, in the browser).") var oauth2 = false
    @Flag(name: .long, help: "With --oauth2: the device flow (a code to enter on another device).") var device = false

    func validate() throws {
        if device, !oauth2 { throw ValidationError("--device goes with --oauth2") }
    }

    func run() async throws {
        let registry = try RemoteCommand.registry(global.remotesFile)
        var target = try LoginTarget.resolve(self.target, name: name, registry: registry)
        // A new remote keeps the -o options, as `remote add` does; an existing one takes them for this sign-in.
        if target.isNew { target.remote.options = try global.providerOptions() }
        var options = target.remote.options
        options.merge(try global.providerOptions()) { _, new in new }
        let credentials: Credentials
        do {
            if oauth2 {
                credentials = try await OAuth2Login.signIn(
                    url: target.wireURL, kind: target.factory.kind, options: options, device: device,
                    transport: try global.transport(), present: presenter())
            } else if target.factory.kind == "nextcloud" {
                credentials = try await loginFlow(target)
            } else {
                credentials = try await PasswordLogin(global: global).signIn(target, registry: registry)
            }
        } catch {
            throw Strata.printable(error)
        }
        try await save(credentials, target, registry: registry)
    }

    /// Login Flow v2 against the target's server.
    private func loginFlow(_ target: LoginTarget) async throws -> Credentials {
        guard let root = NextcloudLoginFlow.serverRoot(of: target.wireURL) else {
            throw ValidationError("not a server URL: \(Redactor.redact(url: target.wireURL))")
        }
        let environment = ProcessInfo.processInfo.environment
        var flow = NextcloudLoginFlow(serverRoot: root, transport: try global.transport(), userAgent: Self.userAgent())
        if let text = environment["STRATA_LOGIN_POLL_INTERVAL"] {
            flow.interval = try GlobalOptions.seconds(text, option: "STRATA_LOGIN_POLL_INTERVAL")
        }
        if let text = environment["STRATA_LOGIN_FLOW_LIFETIME"] {
            flow.lifetime = try GlobalOptions.seconds(text, option: "STRATA_LOGIN_FLOW_LIFETIME")
        }
        flow.notice = { Output.error("strata: \($0)") }
        let started = try await flow.start()
        presenter()(
            "to sign in to \(Redactor.redact(url: root)), open this page, log in and grant access:", started.loginURL)
        Output.error("strata: waiting for access to be granted (for \(NextcloudLoginFlow.minutes(flow.lifetime)) at most; Ctrl-C stops)")
        return try await flow.wait(for: started)
    }

    /// Shows a sign-in message on stderr, with the page to open, and opens it unless --no-browser.
    private func presenter() -> @Sendable (String, URL?) -> Void {
        let open = !noBrowser
        return { message, url in
            Output.error("strata: \(message)")
            guard let url else { return }
            Output.error("  \(url.absoluteString)")
            if open, BrowserOpener.open(url) { Output.error("strata: opened in your browser") }
        }
    }

    /// Saves the login under the remote's name, then the remote when it is new; a replaced app
    /// password is revoked on the server.
    private func save(_ credentials: Credentials, _ target: LoginTarget, registry: ProviderRegistry) async throws {
        let store = Self.savedLogins()
        let previous = try await store.credentials(for: target.name)
        try await store.setCredentials(credentials, for: target.name)
        if target.isNew {
            let file = global.remotesFile
            registry.addRemote(target.remote)
            do {
                try FileErrorText.doing("save the remotes file \(TerminalText.escape(file.path))") {
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try registry.saveRemotes(to: file)
                }
            } catch {
                try? await store.setCredentials(previous, for: target.name)
                throw error
            }
        }
        if let previous, previous.kind == .appPassword, previous != credentials, target.factory.kind == "nextcloud",
            let root = NextcloudLoginFlow.serverRoot(of: target.wireURL)
        {
            do {
                _ = try await NextcloudLoginFlow.revoke(
                    previous, serverRoot: root, transport: try global.transport(), userAgent: Self.userAgent())
            } catch {
                Output.error(
                    "strata: the app password this login replaces could not be revoked (\(Strata.printable(error))): revoke it in the server's Security settings")
            }
        }
        let kind = LogoutCommand.describe(credentials)
        if global.json {
            try Output.json(
                LoginSummary(
                    remote: target.name, kind: target.remote.kind, url: Redactor.redact(url: target.remote.url),
                    user: credentials.username, credentials: kind, savedRemote: target.isNew))
        } else {
            let who = credentials.username.map { " as \($0)" } ?? ""
            Output.line("signed in to \(target.name)\(who): \(kind) saved")
            if target.isNew {
                Output.line("saved remote \(target.name): \(target.remote.kind) \(Redactor.redact(url: target.remote.url)) (use \(target.name):/path)")
            }
        }
    }

    /// The saved logins (the one place this command and `logout` take them from).
    static func savedLogins() -> any CredentialStore {
        GlobalOptions.savedLogins()
    }

    /// `strata/VERSION (HOST)`: the server names the app password after it.
    static func userAgent() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "unknown"
        return "strata/\(Strata.configuration.version) (\(host))"
    }
}

/// What `strata login --json` prints (never a secret).
struct LoginSummary: Encodable {
    var remote: String
    var kind: String
    var url: String
    var user: String?
    var credentials: String
    var savedRemote: Bool
}
