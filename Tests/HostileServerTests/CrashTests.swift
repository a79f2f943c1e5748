import Foundation
import HostileTestServer
import ProviderAPI
import Testing

/// Class 1: values a server (or a user) controls that used to trap (exit 132): ports above
/// 65535 in a URL or a redirect `Location`, Pydio times of `inf`, `nan`, `1e300`.
@Suite("Hostile class 1: nothing a server sends traps")
struct CrashTests {
    @Test("strata get: a redirect to port 99999 is an error, not a trap")
    func cliRedirectToInvalidPort() async throws {
        try await Hostile.withServer(.redirectToInvalidPort()) { server in
            let folder = try Hostile.temporaryFolder("crash-port")
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await StrataCLI.run(["get", Hostile.target("webdav", server, "/file.bin"), folder.path])
            #expect(!run.trapped, "strata died of signal \(run.status): \(run.error)")
            #expect(!run.killed)
            #expect(run.status != 0)
            #expect(Hostile.contents(of: folder).isEmpty)
        }
    }

    @Test("strata ls: a user URL with a port outside 1…65535 is an error, not a trap", arguments: ["99999", "65536", "0"])
    func cliInvalidUserPort(_ port: String) async throws {
        let run = try await StrataCLI.run(["ls", "webdav://127.0.0.1:\(port)/"], limit: 30)
        #expect(!run.trapped, "strata died of signal \(run.status): \(run.error)")
        #expect(!run.killed)
        #expect(run.status != 0)
    }

    @Test("strata ls: a Pydio ajxp_modiftime that is not a time does not trap", arguments: ["inf", "-inf", "nan", "1e300", "-1e300"])
    func cliPydioModifiedTime(_ value: String) async throws {
        try await Hostile.withServer(.pydioModifiedTime(value)) { server in
            for json in [false, true] {
                let run = try await StrataCLI.run(
                    ["ls", Hostile.target("pydio", server, "/pydio/ws/"), "-u", Hostile.user] + (json ? ["--json"] : []))
                #expect(!run.trapped, "strata ls\(json ? " --json" : "") died of signal \(run.status): \(run.error)")
                #expect(!run.killed)
                if run.status == 0 { #expect(run.outputText.contains("file.bin")) }
            }
        }
    }

    @Test("SDK: a Pydio ajxp_modiftime that is not a time is refused or dropped", arguments: ["inf", "-inf", "nan", "1e300", "-1e300"])
    func sdkPydioModifiedTime(_ value: String) async throws {
        try await Hostile.withServer(.pydioModifiedTime(value)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.pydio(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                switch outcome {
                case .value(let items):
                    let modified = items.first?.modified?.timeIntervalSince1970
                    #expect(modified == nil || (modified!.isFinite && abs(modified!) < 1e11), "\(String(describing: modified))")
                case .failure(let error):
                    #expect(error.code == .invalidResponse, "\(error)")
                default:
                    Issue.record("listing \(outcome)")
                }
            }
        }
    }

    @Test("SDK: a Pydio bytesize that is not a size is refused or dropped", arguments: ["1e300", "-5", "99999999999999999999"])
    func sdkPydioSize(_ value: String) async throws {
        try await Hostile.withServer(.pydioSize(value)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.pydio(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                switch outcome {
                case .value(let items):
                    let size = items.first?.size
                    #expect(size == nil || size! >= 0, "\(String(describing: size))")
                case .failure(let error):
                    #expect(error.code == .invalidResponse, "\(error)")
                default:
                    Issue.record("listing \(outcome)")
                }
            }
        }
    }

    @Test("SDK: a redirect to port 99999 is invalidResponse (it trapped in NIO's SocketAddress)")
    func sdkRedirectToInvalidPort() async throws {
        try await Hostile.withServer(.redirectToInvalidPort()) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions()) }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                #expect(outcome.error?.message?.contains("redirect to an invalid location") == true, "\(outcome)")
            }
        }
    }
}
