import ArgumentParser
import Foundation
import ProviderAPI
import ProviderKit

/// `strata remote add|list|remove`: the saved remotes of `--remotes` (default
/// `$XDG_CONFIG_HOME/strata/remotes.json`) and their logins (the keyring, else `credentials.json`
/// in the config folder, mode 0600: ``SavedLogins``), so that `name:/path` works as a target
/// without repeating the URL, options and login. `remotes.json` never holds a secret.
struct RemoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote", abstract: "Save, list and remove named remotes (name:/path targets).",
        subcommands: [RemoteAddCommand.self, RemoteListCommand.self, RemoteRemoveCommand.self])
}

/// One saved remote as `strata remote list` prints it (never a secret).
struct RemoteSummary: Encodable, Equatable {
    /// The remote's name.
    var name: String
    /// The adapter's kind.
    var kind: String
    /// The server URL, without any password.
    var url: String
    /// The adapter options, a value whose key looks secret masked.
    var options: [String: String]
    /// What kind of credentials are saved for it (`basic user`, `bearer`, or none).
    var credentials: String?
    /// Where its saved login is kept: `keyring`, or `file <path>` (none without a login).
    var loginKeptIn: String?
}

extension RemoteCommand {
    /// A registry holding only the remotes of `file` (the adapters of this command line, for kinds).
    static func registry(_ file: URL) throws -> ProviderRegistry {
        let registry = StrataCommandLine.current.registry()
        try registry.loadRemotes(from: file)
        return registry
    }

    /// Whether `name` can name a remote: letters, digits, `-`, `_` and `.`, starting with a letter or
    /// digit, at most 64 characters, and not one letter (which would read as a Windows drive).
    static func isValidName(_ name: String) -> Bool {
        guard (2...64).contains(name.count), let first = name.unicodeScalars.first, isWordCharacter(first) else { return false }
        return name.unicodeScalars.allSatisfy { isWordCharacter($0) || $0 == "-" || $0 == "_" || $0 == "." }
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
    }

    /// `options` with values of keys that look secret (``looksSecret(_:)``) masked.
    static func printable(_ options: [String: String]) -> [String: String] {
        options.reduce(into: [:]) { result, option in
            result[option.key] = looksSecret(option.key) ? "***" : option.value
        }
    }

    /// Whether an option named `key` looks like it holds a secret (`password`, `token`, `secret`,
    /// an API key): such an option is never saved in `remotes.json`.
    static func looksSecret(_ key: String) -> Bool {
        let key = key.lowercased()
        return ["password", "passwd", "token", "secret", "apikey", "api-key", "api_key"].contains { key.contains($0) }
    }
}

struct RemoteAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Save a remote: a name for a server URL, its adapter options and, if asked, its login.",
        discussion: """
            The URL's scheme picks the adapter, as for any target (webdav://, webdavs://, nuxeo://, pydio://, \
            nextcloud://, …; `strata adapters` lists them). -o options are saved with the remote (a \
            secret among them is refused: use --save-login). With --save-login the login of --user and \
            STRATA_PASSWORD (or --password-file, or --bearer and STRATA_TOKEN) is saved in the system's \
            keyring (the Secret Service, or the Keychain), or, when none answers, in credentials.json \
            in the config folder, readable by you only (STRATA_KEYRING=file always uses the file); \
            without it, commands on the remote take the login from the same options each time. Nothing \
            is sent to the server: the first command on the remote checks it.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The remote's name (letters, digits, - _ .), used as name:/path.") var name: String
    @Argument(help: "The server URL (no password in it).") var url: String
    @Flag(name: .long, help: "Save the login given (--user with STRATA_PASSWORD or --password-file, or --bearer).")
    var saveLogin = false
    @Flag(name: .long, help: "Replace a remote of the same name.") var replace = false

    func validate() throws {
        guard RemoteCommand.isValidName(name) else {
            throw ValidationError(
                "'\(TerminalText.escape(name))' cannot name a remote: use 2 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit")
        }
        if TargetText.hasPassword(url) {
            throw ValidationError("the URL holds a password: give it in STRATA_PASSWORD or --password-file with --save-login instead")
        }
        // remotes.json is a plain file others may be shown: it never holds a secret.
        if let secret = try global.providerOptions().keys.sorted().first(where: RemoteCommand.looksSecret) {
            throw ValidationError(
                "-o \(TerminalText.escape(secret))=… looks like a secret and would be saved in plain text in remotes.json: save the login with --save-login instead")
        }
    }

    func run() async throws {
        let file = global.remotesFile
        let registry = try RemoteCommand.registry(file)
        guard let parsed = URL(string: url), parsed.scheme != nil, parsed.host != nil || parsed.scheme == "file" else {
            throw ValidationError("not a server URL: \(TerminalText.escape(TargetText.redacted(url)))")
        }
        let factory: any ProviderFactory
        do { factory = try registry.route(parsed).factory } catch { throw Strata.printable(error) }
        if registry.remote(named: name) != nil, !replace {
            throw ValidationError("a remote named \(name) exists: add --replace to change it, or `strata remote remove \(name)`")
        }
        var clean = URLComponents(url: parsed, resolvingAgainstBaseURL: false)
        clean?.user = nil
        clean?.password = nil
        let saved = SavedRemote(name: name, kind: factory.kind, url: clean?.url ?? parsed, options: try global.providerOptions())
        let store = GlobalOptions.savedLogins()
        let locations: [String: CredentialLocation]
        if saveLogin {
            let credentials = try global.credentials(for: parsed)
            guard credentials != .none else {
                throw ValidationError("--save-login needs a login: --user NAME with STRATA_PASSWORD or --password-file, or --bearer with STRATA_TOKEN")
            }
            try await store.setCredentials(credentials, for: name)
            locations = try await store.locations()
        } else if replace {
            try await store.setCredentials(nil, for: name)
            locations = [:]
        } else {
            locations = try await store.locations()
        }
        registry.addRemote(saved)
        try FileErrorText.doing("save the remotes file \(TerminalText.escape(file.path))") {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try registry.saveRemotes(to: file)
        }
        if global.json {
            try Output.json(try await RemoteListCommand.summary(saved, store: store, locations: locations))
        } else {
            let kept = locations[name].map { " (with its login, kept in the \($0))" } ?? ""
            Output.line("saved \(name): \(factory.kind) \(Redactor.redact(url: saved.url))\(saveLogin ? kept : "")")
        }
    }
}

struct RemoteListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the saved remotes: name, adapter, URL, options, the saved login's kind and where it is kept (never the secret).",
        discussion: """
            One line per remote, its fields separated by tabs: name, adapter, URL, options, the login's kind \
            (`basic USER`, `bearer`, …) and where it is kept (`keyring`, or `file PATH`), `-` for none.
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let registry = try RemoteCommand.registry(global.remotesFile)
        let store = GlobalOptions.savedLogins()
        let locations = try await store.locations()
        var summaries: [RemoteSummary] = []
        for remote in registry.savedRemotes { summaries.append(try await Self.summary(remote, store: store, locations: locations)) }
        if global.json {
            try Output.json(summaries)
            return
        }
        for summary in summaries {
            let options = summary.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            let fields = [
                summary.name, summary.kind, summary.url, options.isEmpty ? "-" : options, summary.credentials ?? "-", summary.loginKeptIn ?? "-",
            ]
            Output.rawLine(fields.map(TerminalText.escape).joined(separator: "\t"))
        }
    }

    /// `remote` as printed, with what its saved credentials are (never their secret) and where
    /// they are kept (from `locations`, the store's).
    static func summary(_ remote: SavedRemote, store: SavedLogins, locations: [String: CredentialLocation]) async throws -> RemoteSummary {
        let credentials: String?
        let saved = locations[remote.name] == nil ? .none : try await store.credentials(for: remote.name) ?? .none
        switch saved.kind {
        case .none: credentials = nil
        case .basic: credentials = "basic \(saved.username ?? "")"
        case .appPassword: credentials = "app password \(saved.username ?? "")"
        default: credentials = saved.kind.rawValue
        }
        return RemoteSummary(
            name: remote.name, kind: remote.kind, url: Redactor.redact(url: remote.url), options: RemoteCommand.printable(remote.options),
            credentials: credentials, loginKeptIn: credentials == nil ? nil : locations[remote.name]?.description)
    }
}

struct RemoteRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a saved remote and its saved login.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The remote's name.") var name: String

    func run() async throws {
        let file = global.remotesFile
        let registry = try RemoteCommand.registry(file)
        guard registry.remote(named: name) != nil else {
            throw ValidationError("no remote named \(TerminalText.escape(name)) in \(file.path)")
        }
        // The login first: if the keyring refuses, the remote stays, and the command can be run again.
        try await GlobalOptions.savedLogins().setCredentials(nil, for: name)
        registry.removeRemote(named: name)
        try registry.saveRemotes(to: file)
        if global.json {
            try Output.json(["removed": name])
        } else {
            Output.line("removed \(name)")
        }
    }
}
