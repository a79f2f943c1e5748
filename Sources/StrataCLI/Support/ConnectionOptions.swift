import ArgumentParser
import Foundation
import Logging
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit
import SharedCache
import HTTPProviderKit

/// The options of most commands: their login is `-u/--user`.
typealias GlobalOptions = ConnectionOptions<UserLogin>

/// Options every command takes: credentials, adapter options, output format, logging, remotes.
///
/// `Login` names the login option; `share` takes `--user` for the recipient, so its login is `-u/--login`.
struct ConnectionOptions<Login: LoginOption>: ParsableArguments {
    @OptionGroup var login: Login

    @Option(name: .long, help: "Read the password from this file (else STRATA_PASSWORD).")
    var passwordFile: String?

    @Flag(name: .long, help: "Send STRATA_TOKEN as a bearer token instead of a password.")
    var bearer = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The word of the captcha the server showed in the last run (Pydio, after failed sign-ins).", valueName: "word"))
    var captcha: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where to save a captcha image the server asks to be answered (default: the cache folder's sign-in/).",
            valueName: "file"))
    var captchaOut: String?

    @Option(
        name: [.customShort("o"), .customLong("option")],
        help: ArgumentHelp(
            "An adapter option (repeatable), e.g. -o auth=token, -o repository=default, -o chunkSize=1048576.",
            valueName: "key=value"))
    var adapterOptions: [String] = []

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(
        name: [.short, .long],
        help: "Log to stderr (secrets removed): -v the decisions (retries and their reasons, server checks, comparison rules), -vv each request too.")
    var verbose: Int

    @Option(name: .long, help: "A JSON file of saved remotes (default $XDG_CONFIG_HOME/strata/remotes.json, else ~/.config/strata/remotes.json).")
    var remotes: String?

    @Option(name: .long, help: "Keep an offline cache of what is read in this folder (metadata and contents).")
    var cache: String?

    @Flag(
        name: .long,
        help: """
            Answer from the cache only, without the network (the cache of --cache, or the default one); writes \
            (mkdir, put, rm, mv, cp) are recorded in its sync journal, marked pending, until 'strata replay'.
            """)
    var offline = false

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("The longest a connection may take, per attempt (default 10).", valueName: "seconds"))
    var connectTimeout: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "The longest the server may send no byte before the request fails (default 30). A request met with silence is sent again once at most, so a silent server fails after twice this and a retry's delay (about 60 s by default).",
            valueName: "seconds"))
    var timeout: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Retries after the first attempt; 0 for none (default 3). A refused connection and a silent server get one retry at most, an unknown host or a failed TLS handshake none.",
            valueName: "n"))
    var retries: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "A transfer slower than this for --low-speed-time fails; 0 turns the check off (default 1024).", valueName: "bytes/s"))
    var lowSpeedLimit: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("The window of --low-speed-limit (default 60).", valueName: "seconds"))
    var lowSpeedTime: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also trust the certificates of this PEM file (repeatable): a server whose certificate an authority of its own signed. Certificates are still verified, host names checked.",
            valueName: "file"))
    var caCert: [String] = []

    @Flag(name: .long, help: "Speak HTTP/1.1 only, never HTTP/2 (offered over TLS by default), for a proxy or server whose HTTP/2 is broken.")
    var disableHttp2 = false

    func validate() throws {
        if let captcha, captcha.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--captcha takes the word in the captcha image, not an empty text")
        }
        _ = try providerOptions()
        _ = try transportConfiguration()
        _ = try retryPolicy()
    }

    /// `text` as a duration in seconds (decimals allowed), for the option `name`.
    static func seconds(_ text: String, option name: String, allowZero: Bool = false) throws -> Duration {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0,
            allowZero || value > 0, value <= 31_536_000
        else {
            throw ValidationError("--\(name) takes a number of seconds\(allowZero ? "" : " above 0"), not '\(text)'")
        }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    /// `text` as a whole number from 0 to `maximum`, for the option `name`.
    static func count(_ text: String, option name: String, maximum: Int64) throws -> Int64 {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), (0...maximum).contains(value) else {
            throw ValidationError("--\(name) takes a whole number from 0 to \(maximum), not '\(text)'")
        }
        return value
    }

    /// The deadlines of `--connect-timeout`, `--timeout` and `--low-speed-limit/-time`, which every
    /// provider is given through the registry (``ProviderConfiguration/timeouts``); a flag not
    /// given leaves the transport's default.
    func timeouts() throws -> Timeouts {
        var timeouts = Timeouts()
        if let connectTimeout { timeouts.connect = try Self.seconds(connectTimeout, option: "connect-timeout") }
        if let timeout { timeouts.read = try Self.seconds(timeout, option: "timeout") }
        if lowSpeedLimit != nil || lowSpeedTime != nil {
            var speed = AsyncHTTPClientTransport.Configuration().minimumSpeed ?? .standard
            if let lowSpeedLimit { speed.bytesPerSecond = try Self.count(lowSpeedLimit, option: "low-speed-limit", maximum: 1 << 40) }
            if let lowSpeedTime { speed.window = try Self.seconds(lowSpeedTime, option: "low-speed-time") }
            timeouts.minimumSpeed = speed.bytesPerSecond > 0 ? speed : .off
        }
        return timeouts
    }

    /// The transport's deadlines: the defaults with ``timeouts()`` applied.
    func transportConfiguration() throws -> AsyncHTTPClientTransport.Configuration {
        var configuration = AsyncHTTPClientTransport.Configuration().applying(try timeouts())
        configuration.allowsHTTP2 = !disableHttp2
        for path in caCert {
            do {
                try configuration.trustCertificates(inPEMFile: URL(fileURLWithPath: path))
            } catch let error as ProviderError {
                throw ValidationError("--ca-cert: \(TerminalText.escape(error.message ?? path))")
            }
        }
        return configuration
    }

    /// The retry policy, from `--retries`.
    func retryPolicy() throws -> RetryPolicy {
        var policy = RetryPolicy.standard
        if let retries { policy.maxAttempts = Int(try Self.count(retries, option: "retries", maximum: 100)) + 1 }
        return policy
    }

    /// Prints each retry on stderr, with or without `--verbose`.
    var retryPrinter: @Sendable (RetryNotice) -> Void {
        { notice in Output.error("strata: \(notice.description)") }
    }

    /// The transport every command of this process sends through, made once with these options' deadlines.
    func transport() throws -> AsyncHTTPClientTransport {
        let configuration = try transportConfiguration()
        return CommandTransport.shared.withLockedValue { shared in
            if let shared { return shared }
            let made = AsyncHTTPClientTransport(configuration: configuration)
            shared = made
            return made
        }
    }

    /// The `-o key=value` options as the adapter's ``ProviderConfiguration/options``; a later key wins.
    func providerOptions() throws -> [String: String] {
        var options: [String: String] = [:]
        for text in adapterOptions {
            guard let equals = text.firstIndex(of: "=") else {
                throw ValidationError("-o/--option takes key=value, not '\(text)'")
            }
            let key = text[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw ValidationError("-o/--option needs a key before '=': '\(text)'") }
            options[key] = String(text[text.index(after: equals)...])
        }
        return options
    }

    func credentials(for url: URL) throws -> Credentials {
        let environment = ProcessInfo.processInfo.environment
        if bearer {
            guard let token = environment["STRATA_TOKEN"], !token.isEmpty else {
                throw ValidationError("--bearer needs the STRATA_TOKEN environment variable")
            }
            return .bearer(accessToken: token, refreshToken: nil)
        }
        let name = login.user ?? url.user.flatMap { $0.removingPercentEncoding } ?? environment["STRATA_USER"]
        guard let name, !name.isEmpty else { return .none }
        var password = environment["STRATA_PASSWORD"] ?? ""
        if let passwordFile {
            password = try FileErrorText.doing("read the password file") {
                try String(contentsOfFile: passwordFile, encoding: .utf8)
            }.trimmingCharacters(in: .newlines)
        }
        if password.isEmpty {
            Output.error("strata: no password for \(TerminalText.escape(name)): give it in STRATA_PASSWORD or --password-file")
        }
        return .basic(username: name, password: password)
    }

    var logger: Logger {
        var logger = Logger(label: "strata") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel =
            switch verbose {
            case 0: .warning
            case 1: .debug
            default: .trace
            }
        return logger
    }

    func registry() throws -> ProviderRegistry {
        // The built-in adapters and those of the command line being run (StrataCommandLine).
        let registry = StrataCommandLine.current.registry()
        registry.signIn = captchaPrompt().interaction()
        // What a provider verified about its server is kept in the cache folder for the next run.
        registry.serverFacts = CommandServerFacts(folder: cacheFolder)
        // So do the sessions of chunked uploads, so that a cut copy or sync resumes a large file.
        registry.uploadCheckpoints = CommandUploadCheckpoints(folder: cacheFolder)
        try registry.loadRemotes(from: remotesFile)
        return registry
    }

    /// The saved remotes file: `--remotes`, else `remotes.json` in the config folder.
    var remotesFile: URL {
        remotes.map { URL(fileURLWithPath: $0) } ?? StrataDirectories.config().appendingPathComponent("remotes.json")
    }

    /// The logins saved with remotes (`strata remote add --save-login`, `strata login`): the
    /// operating system's keyring when one answers, else `credentials.json` in the config folder
    /// (``SavedLogins``; `STRATA_KEYRING=file` forces the file). One store per process, so that
    /// the keyring is asked once and the fallback said once.
    static func savedLogins() -> SavedLogins {
        SavedLogins.shared
    }

    /// The provider and path a target names: a URL (`webdav://host/a/b`, `nextcloud://host/a/b`, `nuxeo://host/nuxeo/a/b`,
    /// `pydio://host/pydio/my-files/a/b`)
    /// a saved remote (`name:/a/b`), or a local path (`/tmp/x`, `./x`, `../x`, `.`), which is the `file` URL of the
    /// local adapter. `-o` options are added to a saved remote's own.
    ///
    /// `offlineWrites` says whether the cached provider records writes in the sync journal (the
    /// write commands' ``OfflineWriteOptions``); with ``OfflineWrites/whenUnreachable`` a server that
    /// cannot be reached at connection is not an error: the provider is made without asking it.
    /// `probe: false` makes the provider without asking the server at all (for the journal's own commands).
    func open(
        _ target: String, offlineWrites: OfflineWrites = .off, probe: Bool = true
    ) async throws -> (provider: any StorageProvider, path: ItemPath) {
        if let local = TargetText.localPathURL(target) { return try await open(local.absoluteString, offlineWrites: offlineWrites, probe: probe) }
        if TargetText.hasPassword(target) { Output.error(TargetText.passwordWarning(target)) }
        let registry = try registry()
        let options = try providerOptions()
        if let colon = target.firstIndex(of: ":"), !target[colon...].hasPrefix("://") {
            let name = String(target[..<colon])
            if var remote = registry.remote(named: name) {
                let path = try ItemPath(String(target[target.index(after: colon)...]))
                remote.options.merge(options) { _, new in new }
                registry.addRemote(remote)
                // The saved login, unless one is given on the command line or none is saved.
                let saved = Self.savedLogins()
                let explicit = login.user != nil || bearer || passwordFile != nil
                let hasSaved = try await saved.credentials(for: name).map { $0 != .none } ?? false
                let store = RemoteCredentials(saved: saved, override: explicit || !hasSaved ? try credentials(for: remote.url) : nil)
                // As for a URL: behind the cache when asked, and made without the network offline.
                let provider = try await made(offlineWrites: offlineWrites, probe: probe) { probe in
                    try await registry.provider(
                        remote: name, store: store, services: .transport(try transport()), probe: probe, logger: logger,
                        retry: try retryPolicy(), timeouts: try timeouts(), onRetry: retryPrinter)
                }
                return (provider, path)
            }
        }
        guard let url = URL(string: target), url.scheme != nil else {
            throw ValidationError("not a URL or saved remote: \(TerminalText.escape(TargetText.redacted(target)))")
        }
        guard URLChecks.hasValidPort(url) else {
            throw ValidationError("the port of \(Redactor.redact(url: url)) is not in 1…65535")
        }
        // The path below the provider's root is the URL's, whether the server was asked or not.
        var path = ItemPath.root
        let provider = try await made(offlineWrites: offlineWrites, probe: probe) { probe in
            let resolved = try await registry.provider(
                for: url, credentials: try credentials(for: url), options: options, services: .transport(try transport()),
                probe: probe, logger: logger, retry: try retryPolicy(), timeouts: try timeouts(), onRetry: retryPrinter)
            path = resolved.path
            return resolved.provider
        }
        return (provider, path)
    }

    /// A provider made by `make(true)` (which may ask the server), behind the cache as asked; made
    /// by `make(false)` (without the network) instead when offline or told not to probe (the
    /// provider must not need the server to be made), and with `--queue-offline` when the server
    /// cannot be reached: the write is then tried, and journaled when it fails the same way.
    private func made(
        offlineWrites: OfflineWrites, probe: Bool, make: (_ probe: Bool) async throws -> any StorageProvider
    ) async throws -> any StorageProvider {
        if offline || !probe { return try await cached(try await make(false), offlineWrites: offlineWrites) }
        do {
            let provider = try await make(true)
            signedIn(provider)
            return try await cached(provider, offlineWrites: offlineWrites)
        } catch where offlineWrites == .whenUnreachable && CachedProvider.isOffline(error) {
            return try await cached(try await make(false), offlineWrites: offlineWrites)
        }
    }

    /// How a captcha asked at sign-in is answered: `--captcha`, `--captcha-out`, a prompt on a terminal.
    func captchaPrompt() -> CaptchaPrompt {
        CaptchaPrompt(
            imageFile: captchaOut.map { URL(fileURLWithPath: $0) }, word: captcha,
            folder: cacheRoot().appendingPathComponent("sign-in", isDirectory: true),
            interactive: isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1)
    }

    /// After a sign-in that used `--captcha`, drops the kept session it answered.
    func signedIn(_ provider: any StorageProvider) {
        guard captcha != nil else { return }
        captchaPrompt().forget(server: provider.account.server, user: provider.account.user ?? "")
    }

    /// `provider` behind the offline cache when `--cache` or `--offline` asks for one, or when
    /// writes may be journaled (`offlineWrites`, from ``OfflineWriteOptions/mode(_:)``).
    func cached(_ provider: any StorageProvider, offlineWrites: OfflineWrites = .off) async throws -> any StorageProvider {
        guard cache != nil || offline || offlineWrites != .off else { return provider }
        let store = try await CommandCache.store(at: cacheFolder)
        return CachedProvider(
            wrapping: provider, store: store, policy: offline ? .cacheOnly : .networkFirst,
            offlineWrites: offlineWrites, logger: logger)
    }

    /// The cache folder: `--cache`, else `$XDG_CACHE_HOME/strata` or `~/.cache/strata` (not made
    /// here: `CommandCache.store(at:)` makes it, 0700, on the blocking pool).
    var cacheFolder: URL { cache.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? cacheRoot() }
}

extension ConnectionOptions {
    /// `$XDG_CACHE_HOME/strata`, or `~/.cache/strata`: the default cache folder, and the home of kept sign-in sessions.
    func cacheRoot() -> URL {
        StrataDirectories.cache()
    }
}

/// The process's one transport, made by the first command that connects (a command runs once per process).
enum CommandTransport {
    static let shared = NIOLockedValueBox<AsyncHTTPClientTransport?>(nil)
}
