import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `strata remote` with the logins in the keyring: the real binary against the throw-away
/// gnome-keyring of `scripts/test` (its session bus is in the environment), and with no keyring
/// answering (no bus, a bus that is not there, a bus that never answers).
@Suite("RemoteKeyringTests: saved logins in the keyring, else the file")
struct RemoteKeyringTests {
    /// A config folder of the test's own, and the environment that points the child at it.
    private struct Config {
        let root: URL
        var folder: URL { root.appendingPathComponent("strata", isDirectory: true) }
        var credentials: URL { folder.appendingPathComponent("credentials.json") }
        var remotes: URL { folder.appendingPathComponent("remotes.json") }
        var environment: [String: String?] { ["XDG_CONFIG_HOME": root.path, "STRATA_PASSWORD": nil, "STRATA_USER": nil, "STRATA_KEYRING": nil] }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-keyring-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    private func strata(_ arguments: [String], _ environment: [String: String?], _ extra: [String: String?] = [:]) async throws -> StrataRun {
        try await StrataProcess.run(arguments, environment: environment.merging(extra) { _, new in new })
    }

    @Test("remote add --save-login with a keyring: the login is an item of the Secret Service, nothing is in credentials.json or remotes.json, and the remote works", .testKeyring, .liveServers)
    func savedInKeyring() async throws {
        try TestKeyring.require()
        let server = try LiveWebDAVServer.named("apache")
        let url = server.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://")
        let config = try Config()
        defer { config.remove() }

        let added = try await strata(["remote", "add", "work", url, "-u", server.user, "--save-login"], config.environment, ["STRATA_PASSWORD": server.password])
        #expect(added.status == 0, "\(added)")
        #expect(added.outputText.contains("kept in the keyring"), "\(added)")
        #expect(!added.error.contains("no keyring answered"), "\(added)")
        #expect(!FileManager.default.fileExists(atPath: config.credentials.path), "no credentials.json while a keyring answers")
        let remotes = try String(contentsOf: config.remotes, encoding: .utf8)
        #expect(!remotes.contains(server.password) && !remotes.contains("password"), "\(remotes)")

        // In the Secret Service itself, by the attributes the docs give.
        let lookup = try await SecretTool.run(["lookup", "application", "strata", "remote", "work", "scope", config.folder.standardizedFileURL.path])
        #expect(lookup.status == 0 && lookup.output.contains(server.password), "secret-tool: exit \(lookup.status)")

        let listed = try await strata(["remote", "list"], config.environment)
        #expect(listed.outputText.contains("work\twebdav\t"), "\(listed)")
        #expect(listed.outputText.contains("\tbasic \(server.user)\tkeyring\n"), "\(listed)")
        #expect(!listed.outputText.contains(server.password))
        let json = try await strata(["remote", "list", "--json"], config.environment)
        let decoded = try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]]
        #expect(decoded?.first?["loginKeptIn"] as? String == "keyring", "\(json)")

        // The saved remote is a target: the login comes from the keyring.
        let root = try await strata(["ls", "work:/"], config.environment)
        #expect(root.status == 0, "\(root)")

        let removed = try await strata(["remote", "remove", "work"], config.environment)
        #expect(removed.status == 0, "\(removed)")
        let gone = try await SecretTool.run(["lookup", "application", "strata", "remote", "work", "scope", config.folder.standardizedFileURL.path])
        #expect(gone.status != 0, "the item is removed with the remote")
    }

    @Test("a login saved in the file before stays readable, and saving it again moves it into the keyring", .testKeyring)
    func migration() async throws {
        try TestKeyring.require()
        let config = try Config()
        defer { config.remove() }
        let url = "webdav://127.0.0.1:9/dav"
        let inFile = try await strata(
            ["remote", "add", "old", url, "-u", "ann", "--save-login"], config.environment, ["STRATA_KEYRING": "file", "STRATA_PASSWORD": "from-file"])
        #expect(inFile.status == 0, "\(inFile)")
        #expect(inFile.error.isEmpty, "STRATA_KEYRING=file says nothing: \(inFile)")
        #expect(try String(contentsOf: config.credentials, encoding: .utf8).contains("from-file"))

        let listed = try await strata(["remote", "list"], config.environment)
        #expect(listed.outputText.contains("old\twebdav\t\(url)\t-\tbasic ann\tfile \(config.credentials.path)\n"), "\(listed)")

        let again = try await strata(
            ["remote", "add", "old", url, "-u", "ann", "--save-login", "--replace"], config.environment, ["STRATA_PASSWORD": "now-keyring"])
        #expect(again.status == 0, "\(again)")
        let file = try String(contentsOf: config.credentials, encoding: .utf8)
        #expect(!file.contains("\"old\"") && !file.contains("from-file") && !file.contains("now-keyring"), "\(file)")
        let after = try await strata(["remote", "list"], config.environment)
        #expect(after.outputText.contains("\tbasic ann\tkeyring\n"), "\(after)")
        #expect(try await strata(["remote", "remove", "old"], config.environment).status == 0)
    }

    #if !canImport(Darwin)
        @Test(
            "no keyring answering (a bus that is not there, no bus at all): the login goes to credentials.json, said once on stderr",
            arguments: ["nowhere", "unset"])
        func fallback(_ bus: String) async throws {
            let config = try Config()
            defer { config.remove() }
            let runtime = config.root.appendingPathComponent("runtime", isDirectory: true)
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
            let environment: [String: String?] = [
                "DBUS_SESSION_BUS_ADDRESS": bus == "nowhere" ? "unix:path=\(runtime.path)/no-bus-here" : nil,
                "XDG_RUNTIME_DIR": runtime.path, "DISPLAY": nil,
            ]
            let added = try await strata(
                ["remote", "add", "work", "webdav://127.0.0.1:9/dav", "-u", "ann", "--save-login"], config.environment,
                environment.merging(["STRATA_PASSWORD": "hunter2"]) { _, new in new })
            #expect(added.status == 0, "\(added)")
            #expect(added.error.components(separatedBy: "no keyring answered").count - 1 == 1, "\(added)")
            #expect(added.error.contains("logins are kept in \(config.credentials.path), readable by you only"), "\(added)")
            #expect(!added.error.contains("hunter2"))
            let mode = try FileManager.default.attributesOfItem(atPath: config.credentials.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try String(contentsOf: config.credentials, encoding: .utf8).contains("hunter2"))
            let listed = try await strata(["remote", "list"], config.environment, environment)
            #expect(listed.outputText.contains("\tbasic ann\tfile \(config.credentials.path)\n"), "\(listed)")
            #expect(listed.error.isEmpty, "reading says nothing: \(listed)")
        }

        @Test("a session bus that accepts and never answers: the keyring gives up after its deadline and the file is used")
        func silentBus() async throws {
            let config = try Config()
            defer { config.remove() }
            let socket = try SilentSocket(path: config.root.appendingPathComponent("silent-bus").path)
            defer { socket.close() }
            let added = try await strata(
                ["remote", "add", "work", "webdav://127.0.0.1:9/dav", "-u", "ann", "--save-login"], config.environment,
                ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket.path)", "STRATA_PASSWORD": "hunter2"])
            #expect(added.status == 0, "\(added)")
            #expect(!added.killed)
            #expect(added.error.contains("no keyring answered (the Secret Service did not answer within 5 s"), "\(added)")
            #expect(try String(contentsOf: config.credentials, encoding: .utf8).contains("hunter2"))
        }
    #endif

    @Test("STRATA_KEYRING with an unknown value is refused, and nothing is saved")
    func badSetting() async throws {
        let config = try Config()
        defer { config.remove() }
        let run = try await strata(
            ["remote", "add", "work", "webdav://127.0.0.1:9/dav", "-u", "ann", "--save-login"], config.environment,
            ["STRATA_KEYRING": "maybe", "STRATA_PASSWORD": "hunter2"])
        #expect(run.status != 0)
        #expect(run.error.contains("STRATA_KEYRING takes auto, file or off"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: config.remotes.path))
        #expect(!FileManager.default.fileExists(atPath: config.credentials.path))
    }
}

#if canImport(Glibc)
    /// A Unix socket that listens and never accepts: a connection to it completes (the kernel's
    /// backlog) and then hears nothing, as a hung D-Bus daemon.
    private final class SilentSocket: Sendable {
        let path: String
        private let descriptor: Int32

        init(path: String) throws {
            self.path = path
            descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard descriptor >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                throw POSIXError(.EINVAL)
            }
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                buffer.copyBytes(from: bytes)
                buffer[bytes.count] = 0
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(descriptor, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        }

        func close() { _ = Glibc.close(descriptor) }
    }
#endif
