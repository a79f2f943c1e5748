import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// `strata remote add|list|remove` as the real binary, with saved remotes used as targets against
/// the Apache that `scripts/with-servers` starts. A missing server is a failure, never a skip.
@Suite("strata remote")
struct RemoteCommandTests {
    @Test("add with its login (in the file: STRATA_KEYRING=file), list without the secret, use as name:/path, refuse a second add, remove with its login", .liveServers)
    func savedRemoteLifecycle() async throws {
        let server = try LiveWebDAVServer.named("apache")
        let (user, password) = (server.user, server.password)
        let url = server.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("strata-remote-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        // The config folder is the test's own; no login reaches the child unless a case gives one.
        // The logins go to credentials.json whether a keyring runs or not (RemoteKeyringTests
        // covers the keyring).
        let bare: [String: String?] = ["XDG_CONFIG_HOME": config.path, "STRATA_PASSWORD": nil, "STRATA_USER": nil, "STRATA_KEYRING": "file"]
        var withPassword = bare
        withPassword["STRATA_PASSWORD"] = password
        func strata(_ arguments: [String], _ environment: [String: String?]) async throws -> StrataRun {
            try await StrataProcess.run(arguments, environment: environment)
        }

        let added = try await strata(["remote", "add", "work", url, "-u", user, "--save-login", "-o", "chunkSize=1048576"], withPassword)
        #expect(added.status == 0, "\(added)")
        #expect(added.outputText.contains("saved work: webdav"))
        let credentials = config.appendingPathComponent("strata/credentials.json")
        let mode = try FileManager.default.attributesOfItem(atPath: credentials.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // remotes.json holds no secret: the password is only in credentials.json.
        let remotes = try String(contentsOf: config.appendingPathComponent("strata/remotes.json"), encoding: .utf8)
        #expect(!remotes.contains(password) && !remotes.contains("password"), "\(remotes)")
        #expect(try String(contentsOf: credentials, encoding: .utf8).contains(password))

        let listed = try await strata(["remote", "list"], bare)
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.outputText.contains("work\twebdav\t"))
        #expect(listed.outputText.contains("chunkSize=1048576"))
        #expect(listed.outputText.contains("basic \(user)\tfile \(credentials.path)\n"), "\(listed)")
        #expect(!listed.outputText.contains(password) && !listed.error.contains(password))
        let json = try await strata(["remote", "list", "--json"], bare)
        let decoded = try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]]
        #expect(decoded?.first?["name"] as? String == "work")
        #expect(decoded?.first?["kind"] as? String == "webdav")
        #expect(!json.outputText.contains(password))

        // The saved remote is a target, with its saved login and no password in the environment.
        let root = try await strata(["ls", "work:/"], bare)
        #expect(root.status == 0, "\(root)")

        let again = try await strata(["remote", "add", "work", url], bare)
        #expect(again.status != 0)
        #expect(again.error.contains("--replace"), "\(again)")

        // A remote saved without a login takes the command line's.
        #expect(try await strata(["remote", "add", "plain", url], bare).status == 0)
        let refused = try await strata(["ls", "plain:/"], bare)
        #expect(refused.status != 0, "\(refused)")
        let given = try await strata(["ls", "-u", user, "plain:/"], withPassword)
        #expect(given.status == 0, "\(given)")

        let removed = try await strata(["remote", "remove", "work"], bare)
        #expect(removed.status == 0, "\(removed)")
        let after = try await strata(["remote", "list"], bare)
        #expect(!after.outputText.contains("work\t"))
        #expect(after.outputText.contains("plain\t"))
        #expect(!(try String(contentsOf: credentials, encoding: .utf8)).contains("\"work\""))
        #expect(try await strata(["ls", "work:/"], bare).status != 0)
    }

    @Test("a bad name, a password in the URL or in an -o option, or an unknown scheme is refused, and nothing is saved")
    func refusals() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("strata-remote-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: config) }
        let environment: [String: String?] = ["XDG_CONFIG_HOME": config.path, "STRATA_PASSWORD": nil, "STRATA_USER": nil]
        for (name, url) in [
            ("x", "webdav://127.0.0.1:8080/"), ("has space", "webdav://127.0.0.1:8080/"), ("-dash", "webdav://127.0.0.1:8080/"),
            ("good", "webdav://alice:secret@127.0.0.1:8080/"), ("good", "gopher://127.0.0.1/"), ("good", "not a url"),
        ] {
            let run = try await StrataProcess.run(["remote", "add", "--", name, url], environment: environment)
            #expect(run.status != 0, "\(name) \(url): \(run)")
            #expect(!run.outputText.contains("secret") && !run.error.contains("secret"))
        }
        // remotes.json never holds a secret: an option that looks like one is refused, not saved.
        for option in ["password=hunter2", "api_token=hunter2", "clientSecret=hunter2"] {
            let run = try await StrataProcess.run(["remote", "add", "good", "webdav://127.0.0.1:8080/", "-o", option], environment: environment)
            #expect(run.status != 0, "\(option): \(run)")
            #expect(run.error.contains("--save-login"), "\(run)")
            #expect(!run.outputText.contains("hunter2") && !run.error.contains("hunter2"))
        }
        #expect(!FileManager.default.fileExists(atPath: config.appendingPathComponent("strata/remotes.json").path))
    }
}
