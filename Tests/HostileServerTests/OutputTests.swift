import Foundation
import HostileTestServer
import ProviderAPI
import Testing

/// Class 6: secrets and control characters in output. `strata` escapes control characters in
/// names and messages (`--json` stays exact), never prints a credential a server echoes, and
/// never echoes the password of a target it cannot parse.
@Suite("Hostile class 6: output stays clean of control characters and secrets")
struct OutputTests {
    /// Bytes that must never reach a terminal raw: ESC, BEL, CR, DEL, and the C1 CSI (U+009B in UTF-8).
    static func rawControls(in data: Data) -> [String] {
        var found: [String] = []
        let bytes = [UInt8](data)
        for byte: UInt8 in [0x1B, 0x07, 0x0D, 0x7F] where bytes.contains(byte) { found.append("0x" + String(byte, radix: 16, uppercase: true)) }
        if bytes.indices.dropLast().contains(where: { bytes[$0] == 0xC2 && bytes[$0 + 1] == 0x9B }) { found.append("U+009B") }
        return found
    }

    @Test("strata ls escapes ESC sequences, newlines and C1 controls in names: one line per entry")
    func listing() async throws {
        try await Hostile.withServer(.webdavNames()) { server in
            let run = try await StrataCLI.run(["ls", Hostile.target("webdav", server, "/")])
            #expect(!run.trapped && !run.killed, "\(run.error)")
            #expect(run.status == 0, "\(run.error)")
            #expect(Self.rawControls(in: run.output).isEmpty, "raw controls in stdout: \(Self.rawControls(in: run.output))")
            let lines = run.outputText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == HostileScenario.controlNames.count, "forged lines: \(lines)")
            #expect(!lines.contains { $0.hasPrefix("d ") }, "a name forged a folder line: \(lines)")
        }
    }

    @Test("strata ls --json keeps the names exact")
    func json() async throws {
        try await Hostile.withServer(.webdavNames()) { server in
            let run = try await StrataCLI.run(["ls", Hostile.target("webdav", server, "/"), "--json"])
            #expect(run.status == 0, "\(run.error)")
            let items = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])
            // Items are encoded with their path: `/` and the exact name.
            #expect(Set(items.compactMap { $0["path"] as? String }) == Set(HostileScenario.controlNames.map { "/" + $0 }))
        }
    }

    @Test("an error body quoting the Authorization header is not printed with the credential")
    func echoedAuthorization() async throws {
        try await Hostile.withServer(.echoAuthorization) { server in
            let run = try await StrataCLI.run(["ls", Hostile.target("webdav", server, "/"), "-u", Hostile.user])
            #expect(!run.trapped && !run.killed, "\(run.error)")
            #expect(run.status != 0)
            #expect(server.requests.contains { $0.header("Authorization") == "Basic " + Hostile.basicToken }, "the server saw the credential")
            #expect(!run.error.contains(Hostile.basicToken), "\(run.error)")
            #expect(!run.error.contains(Hostile.password), "\(run.error)")
            #expect(!run.outputText.contains(Hostile.basicToken))

            // The same through the SDK: the error a caller sees holds no credential.
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                #expect(outcome.error != nil, "\(outcome)")
                #expect(!"\(outcome)".contains(Hostile.basicToken), "\(outcome)")
            }
        }
    }

    @Test(
        "a target that fails to parse is not echoed with its password",
        arguments: ["webdav://ann:\(Hostile.password)@[::1", "webdav://ann:\(Hostile.password)@127.0.0.1:99999/", "ann:\(Hostile.password)@host"])
    func unparsableTarget(_ target: String) async throws {
        let run = try await StrataCLI.run(["ls", target], limit: 90)
        #expect(!run.trapped && !run.killed, "\(run.error)")
        #expect(run.status != 0)
        #expect(!run.error.contains(Hostile.password), "\(run.error)")
        #expect(!run.outputText.contains(Hostile.password))
    }

    @Test("a password in the target URL gives a warning that it is visible in the process list")
    func passwordInURL() async throws {
        try await Hostile.withServer(.webdavNames(["plain.txt"])) { server in
            let run = try await StrataCLI.run(["ls", "webdav://ann:\(Hostile.password)@127.0.0.1:\(server.port)/"])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.error.lowercased().contains("process list"), "\(run.error)")
            #expect(!run.error.contains(Hostile.password), "\(run.error)")
        }
    }

    /// Scalars that must never reach a terminal raw: C0 controls but the line feeds ending lines,
    /// DEL, C1 controls, line and paragraph separators, and format characters (bidi overrides,
    /// zero-width spaces, byte-order marks) but the joiners.
    static func rawInvisibles(in data: Data, keepingNewlines: Bool = true) -> [String] {
        var found: Set<String> = []
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            let value = scalar.value
            if value == 0x0A, keepingNewlines { continue }
            let bad: Bool
            switch value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: bad = true
            case 0x200C, 0x200D: bad = false
            default: bad = scalar.properties.generalCategory == .format
            }
            if bad { found.insert("U+" + String(value, radix: 16, uppercase: true)) }
        }
        return found.sorted()
    }

    @Test("strata ls escapes bidi overrides, zero-width characters, C1 controls and line separators in names")
    func invisibleNames() async throws {
        try await Hostile.withServer(.webdavNames(HostileScenario.invisibleNames)) { server in
            let run = try await StrataCLI.run(["ls", Hostile.target("webdav", server, "/")])
            #expect(!run.trapped && !run.killed, "\(run.error)")
            #expect(run.status == 0, "\(run.error)")
            #expect(Self.rawInvisibles(in: run.output).isEmpty, "raw in stdout: \(Self.rawInvisibles(in: run.output))")
            #expect(run.outputText.split(separator: "\n").count == HostileScenario.invisibleNames.count, "\(run.outputText)")
            let json = try await StrataCLI.run(["ls", Hostile.target("webdav", server, "/"), "--json"])
            let items = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
            #expect(Set(items.compactMap { $0["path"] as? String }) == Set(HostileScenario.invisibleNames.map { "/" + $0 }))
        }
    }

    @Test("an error message with terminal escapes and the credential is printed escaped and without it",
        arguments: ["webdav-body", "webdav-401", "pydio", "nuxeo"])
    func errorMessages(_ kind: String) async throws {
        let scenario: HostileScenario
        let target: (HostileServer) -> String
        switch kind {
        case "webdav-body":
            scenario = .controlsInErrorBody
            target = { Hostile.target("webdav", $0, "/") }
        case "webdav-401":
            scenario = .echoingChallenge
            target = { Hostile.target("webdav", $0, "/") }
        case "pydio":
            scenario = .pydioEchoingError(Hostile.password)
            target = { Hostile.target("pydio", $0, "/pydio/ws/") }
        default:
            scenario = .nuxeoControlsInError
            target = { Hostile.target("nuxeo", $0, "/nuxeo/") }
        }
        try await Hostile.withServer(scenario) { server in
            for verbose in [false, true] {
                let run = try await StrataCLI.run(["ls", target(server), "-u", Hostile.user] + (verbose ? ["--verbose"] : []))
                #expect(!run.trapped && !run.killed, "\(run.error)")
                #expect(run.status != 0)
                let stderr = Data(run.error.utf8)
                #expect(Self.rawInvisibles(in: stderr).isEmpty, "verbose \(verbose), raw in stderr: \(Self.rawInvisibles(in: stderr)): \(run.error)")
                #expect(Self.rawInvisibles(in: run.output).isEmpty)
                #expect(!run.error.contains(Hostile.basicToken), "verbose \(verbose): \(run.error)")
                #expect(!run.error.contains(Hostile.password), "verbose \(verbose): \(run.error)")
            }
        }
    }
}
