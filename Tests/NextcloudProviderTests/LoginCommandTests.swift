import Foundation
import HTTPProviderKit
import NIOHTTP1
import NextcloudTestServer
import ProviderAPI
import StrataProcessKit
import Testing
import WebDAVProvider

/// `strata login` and `strata logout` against the loopback Nextcloud, the test acting as the user
/// in the browser: it reads the link the command prints and grants access on the server's page.
@Suite("strata login / logout against the loopback Nextcloud")
struct LoginCommandTests {
    /// A config folder of its own (remotes.json, the saved logins), and the environment of each run.
    struct Home {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-login-\(UUID().uuidString)", isDirectory: true)
        var environment: [String: String?] {
            [
                "XDG_CONFIG_HOME": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                "STRATA_PASSWORD": nil, "STRATA_LOGIN_POLL_INTERVAL": "0.05", "DISPLAY": nil, "WAYLAND_DISPLAY": nil,
            ]
        }
        /// The files strata wrote in its config folder.
        func files() -> [String] {
            let config = folder.appendingPathComponent("strata")
            return ((try? FileManager.default.contentsOfDirectory(atPath: config.path)) ?? []).sorted()
        }
        func remove() { try? FileManager.default.removeItem(at: folder) }

        func run(_ arguments: [String], extra: [String: String?] = [:]) async throws -> StrataRun {
            try await StrataProcess.run(arguments, environment: environment.merging(extra) { _, new in new })
        }
    }

    static func base(_ cloud: LoopbackNextcloud) -> String {
        cloud.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://").trimmingSuffix("/")
    }

    /// Fails when `output` holds a secret: a poll token or app password the server handed out, or the user's password.
    static func expectNoSecret(_ output: String, _ cloud: LoopbackNextcloud, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in cloud.server.loginFlowSecrets() + [LoopbackNextcloud.password] {
            #expect(!output.contains(secret), "a secret was printed: \(output)", sourceLocation: sourceLocation)
        }
    }

    /// Whether `password` still opens alice's files.
    static func works(_ cloud: LoopbackNextcloud, password: String) async throws -> Bool {
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Basic " + Data("\(LoopbackNextcloud.user):\(password)".utf8).base64EncodedString())
        headers.add(name: "Depth", value: "0")
        let response = try await AsyncHTTPClientTransport.shared.send(
            TransportRequest(method: HTTPMethod(rawValue: "PROPFIND"), url: cloud.davURL(), headers: headers))
        await response.body.discard()
        return response.status == 207
    }

    @Test("login: the printed link is granted in the browser, the app password is saved; ls works with it; logout revokes it")
    func loginListLogout() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        _ = try await provider.upload(DataSource(string: "hello"), to: .root, name: "seen.txt", options: UploadOptions())
        let home = Home()
        defer { home.remove() }

        let login = try LiveStrata(["login", Self.base(cloud), "--name", "cloud", "--no-browser", "-vv"], environment: home.environment)
        let link = try #require(await login.loginURL(), "no login link printed")
        #expect(home.files().isEmpty, "something was saved before access was granted")
        #expect(try await LoginFlowBrowser.grant(link, user: LoopbackNextcloud.user, password: LoopbackNextcloud.password) == 200)
        let signedIn = await login.finish()
        #expect(signedIn.termination.status == 0 && !signedIn.termination.signaled, "\(signedIn.output)")
        #expect(signedIn.output.contains("signed in to cloud as alice"))
        #expect(signedIn.output.contains("saved remote cloud"))
        Self.expectNoSecret(signedIn.output, cloud)
        let names = cloud.server.appPasswordNames(user: LoopbackNextcloud.user)
        #expect(names.count == 1)
        #expect(names.first?.hasPrefix("strata/") == true, "the app password is named after strata's User-Agent: \(names)")
        let appPassword = try #require(cloud.server.loginFlowSecrets().last)
        #expect(try await Self.works(cloud, password: appPassword))

        // The saved remote and login: no --user, no password given.
        let listed = try await home.run(["ls", "cloud:/\(folder)"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.outputText.contains("seen.txt"))
        Self.expectNoSecret(listed.outputText + listed.error, cloud)

        let out = try await home.run(["logout", "cloud", "--json"])
        #expect(out.status == 0, "\(out)")
        let summary = try #require(try JSONSerialization.jsonObject(with: out.output) as? [String: Any])
        #expect(summary["removed"] as? Bool == true)
        #expect(summary["revoked"] as? Bool == true)
        Self.expectNoSecret(out.outputText + out.error, cloud)
        #expect(try await Self.works(cloud, password: appPassword) == false, "the server still takes the revoked app password")
        #expect(cloud.server.appPasswordNames(user: LoopbackNextcloud.user).isEmpty)
        let again = try await home.run(["ls", "cloud:/\(folder)"])
        #expect(again.status != 0, "ls still signed in after logout: \(again)")
        let twice = try await home.run(["logout", "cloud"])
        #expect(twice.status == 0)
        #expect(twice.outputText.contains("no login saved"))
    }

    @Test("login --json prints the remote and user, never the app password")
    func loginJSON() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let home = Home()
        defer { home.remove() }
        let login = try LiveStrata(["login", Self.base(cloud), "--no-browser", "--json"], environment: home.environment)
        let link = try #require(await login.loginURL())
        #expect(try await LoginFlowBrowser.grant(link, user: LoopbackNextcloud.user, password: LoopbackNextcloud.password) == 200)
        let signedIn = await login.finish()
        #expect(signedIn.termination.status == 0, "\(signedIn.output)")
        Self.expectNoSecret(signedIn.output, cloud)
        let json = try #require(signedIn.output.range(of: "{").map { String(signedIn.output[$0.lowerBound...]) })
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        // Without --name, the remote is named after the host and port.
        #expect(summary["remote"] as? String == "127.0.0.1-\(cloud.server.port)")
        #expect(summary["user"] as? String == "alice")
        #expect(summary["credentials"] as? String == "app password")
        #expect(summary["savedRemote"] as? Bool == true)
    }

    #if os(Linux)
        @Test("with a desktop session, strata opens the link with xdg-open; granting in that browser signs in")
        func opensBrowser() async throws {
            let cloud = try await LoopbackNextcloud.start()
            defer { Task { await cloud.stop() } }
            let home = Home()
            defer { home.remove() }
            // A stand-in xdg-open that hands the URL to the test through a FIFO (the test blocks reading it until then).
            let bin = home.folder.appendingPathComponent("bin", isDirectory: true)
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let fifo = home.folder.appendingPathComponent("opened").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let opener = bin.appendingPathComponent("xdg-open")
            try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" > '\(fifo)'\n".utf8).write(to: opener)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
            var environment = home.environment
            environment["DISPLAY"] = ":99"
            environment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            environment["STRATA_LOGIN_FLOW_LIFETIME"] = "30"

            let login = try LiveStrata(["login", Self.base(cloud), "--name", "cloud"], environment: environment)
            let ending = Task {
                let ended = await login.finish()
                // Unblocks the reader when strata ended without opening anything.
                let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
                if descriptor >= 0 { close(descriptor) }
                return ended
            }
            let opened: String = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    // Read to the end by hand: Foundation reads a FIFO's size (0) and stops there.
                    var data = Data()
                    let descriptor = open(fifo, O_RDONLY)
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while descriptor >= 0 {
                        let count = read(descriptor, &buffer, buffer.count)
                        if count <= 0 { break }
                        data.append(contentsOf: buffer[0..<count])
                    }
                    if descriptor >= 0 { close(descriptor) }
                    continuation.resume(returning: String(decoding: data, as: UTF8.self))
                }
            }
            guard let link = URL(string: opened.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                Issue.record("xdg-open was not run: \(await ending.value.output)")
                return
            }
            #expect(link.path.contains("/index.php/login/v2/flow/"))
            #expect(try await LoginFlowBrowser.grant(link, user: LoopbackNextcloud.user, password: LoopbackNextcloud.password) == 200)
            let ended = await ending.value
            #expect(ended.termination.status == 0, "\(ended.output)")
            #expect(ended.output.contains("opened in your browser"))
            Self.expectNoSecret(ended.output, cloud)
        }
    #endif

    @Test("a flow nobody grants expires with a clear error, and nothing is saved")
    func expiry() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let home = Home()
        defer { home.remove() }
        let run = try await home.run(
            ["login", Self.base(cloud), "--name", "cloud", "--no-browser"], extra: ["STRATA_LOGIN_FLOW_LIFETIME": "0.3"])
        #expect(run.status != 0)
        #expect(run.error.contains("not granted"), "\(run)")
        #expect(run.error.contains("nothing was saved"), "\(run)")
        #expect(home.files().isEmpty, "saved after an expired flow: \(home.files())")
        Self.expectNoSecret(run.outputText + run.error, cloud)
    }

    @Test("Ctrl-C while waiting for the browser saves nothing")
    func interrupted() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let home = Home()
        defer { home.remove() }
        let login = try LiveStrata(["login", Self.base(cloud), "--name", "cloud", "--no-browser"], environment: home.environment)
        _ = try #require(await login.loginURL())
        #expect(login.signal(SIGINT))
        let ended = await login.finish()
        #expect(ended.termination.status != 0, "\(ended.output)")
        #expect(home.files().isEmpty, "saved after Ctrl-C: \(home.files())")
        #expect(cloud.server.appPasswordNames(user: LoopbackNextcloud.user).isEmpty)
    }

    @Test("logout when the server cannot revoke: the login stays unless --force; --keep-on-server does not ask")
    func revocationFails() async throws {
        let cloud = try await LoopbackNextcloud.start()
        let home = Home()
        defer { home.remove() }
        let login = try LiveStrata(["login", Self.base(cloud), "--name", "cloud", "--no-browser"], environment: home.environment)
        let link = try #require(await login.loginURL())
        #expect(try await LoginFlowBrowser.grant(link, user: LoopbackNextcloud.user, password: LoopbackNextcloud.password) == 200)
        #expect(await login.finish().termination.status == 0)
        let secrets = cloud.server.loginFlowSecrets()
        await cloud.stop()

        let refused = try await home.run(["logout", "cloud", "--retries", "0"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("could not revoke"), "\(refused)")
        #expect(refused.error.contains("stays saved"), "\(refused)")
        let forced = try await home.run(["logout", "cloud", "--force", "--retries", "0"])
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.outputText.contains("NOT revoked"), "the login was not there any more: \(forced)")
        for secret in secrets { #expect(!(refused.outputText + refused.error + forced.outputText + forced.error).contains(secret)) }
        let gone = try await home.run(["logout", "cloud"])
        #expect(gone.outputText.contains("no login saved"))
    }

    @Test("plain WebDAV: the password is checked with the server before it is saved")
    func passwordLogin() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "dav.txt", options: UploadOptions())
        let home = Home()
        defer { home.remove() }
        let url = cloud.davURL().absoluteString.replacingOccurrences(of: "http://", with: "webdav://")

        let wrong = try await home.run(["login", url, "--name", "dav", "-u", "alice"], extra: ["STRATA_PASSWORD": "wrong-pass-1"])
        #expect(wrong.status != 0)
        #expect(wrong.error.contains("refused"), "\(wrong)")
        #expect(!(wrong.outputText + wrong.error).contains("wrong-pass-1"))
        #expect(home.files().isEmpty, "saved a refused login: \(home.files())")

        let right = try await home.run(["login", url, "--name", "dav", "-u", "alice"], extra: ["STRATA_PASSWORD": LoopbackNextcloud.password])
        #expect(right.status == 0, "\(right)")
        Self.expectNoSecret(right.outputText + right.error, cloud)
        let listed = try await home.run(["ls", "dav:/\(folder)"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.outputText.contains("dav.txt"))
        let out = try await home.run(["logout", "dav"])
        #expect(out.status == 0, "\(out)")
        #expect(try await home.run(["ls", "dav:/\(folder)"]).status != 0)
    }

    @Test("on a terminal, the password is asked without echo, and never shown")
    func terminalPrompt() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let home = Home()
        defer { home.remove() }
        let url = cloud.davURL().absoluteString.replacingOccurrences(of: "http://", with: "webdav://")
        let password = LoopbackNextcloud.password
        let run = try await StrataProcess.runOnTerminal(
            ["login", url, "--name", "dav", "-u", LoopbackNextcloud.user], environment: home.environment,
            prompt: "Password for alice on dav: ", limit: 60
        ) { _ in password }
        #expect(run.status == 0, "\(run)")
        #expect(run.outputText.contains("signed in to dav as alice"), "\(run)")
        #expect(!run.outputText.contains(password), "the typed password was echoed: \(run)")
        #expect(try await home.run(["ls", "dav:/"]).status == 0)
    }

    @Test("signing in again replaces the saved app password and revokes the old one on the server")
    func loginAgain() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let home = Home()
        defer { home.remove() }
        func signIn(_ target: String) async throws -> String {
            let login = try LiveStrata(["login", target, "--no-browser"], environment: home.environment)
            let link = try #require(await login.loginURL())
            #expect(try await LoginFlowBrowser.grant(link, user: LoopbackNextcloud.user, password: LoopbackNextcloud.password) == 200)
            let ended = await login.finish()
            #expect(ended.termination.status == 0, "\(ended.output)")
            Self.expectNoSecret(ended.output, cloud)
            return try #require(cloud.server.loginFlowSecrets().last)
        }
        let first = try await signIn(Self.base(cloud) + "/")
        let name = "127.0.0.1-\(cloud.server.port)"
        let second = try await signIn(name)
        #expect(first != second)
        #expect(try await Self.works(cloud, password: first) == false, "the replaced app password still works")
        #expect(try await Self.works(cloud, password: second))
        #expect(cloud.server.appPasswordNames(user: LoopbackNextcloud.user).count == 1)
        #expect(try await home.run(["ls", "\(name):/"]).status == 0)
    }

    @Test("login refuses a URL with a password and a name taken by another server, before any request")
    func refusals() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let home = Home()
        defer { home.remove() }
        let inline = try await home.run(["login", "nextcloud://alice:pw-in-url-9@127.0.0.1:\(cloud.server.port)", "--no-browser"])
        #expect(inline.status != 0)
        #expect(!(inline.outputText + inline.error).contains("pw-in-url-9"))
        let added = try await home.run(["remote", "add", "cloud", "webdav://127.0.0.1:1/elsewhere"])
        #expect(added.status == 0, "\(added)")
        let taken = try await home.run(["login", Self.base(cloud), "--name", "cloud", "--no-browser"])
        #expect(taken.status != 0)
        #expect(taken.error.contains("exists for another server"), "\(taken)")
        #expect(cloud.server.loginFlowsInProgress() == 0)
    }
}
