import Foundation
import HostileTestServer
import NIOHTTP1
import ProviderAPI
import Testing
import HTTPProviderKit

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
        let run = try await StrataCLI.run(["ls", "webdav://127.0.0.1:\(port)/"], limit: 90)
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

    static let sizeTexts = ["-5", "+5", " 7", "1e3", "99999999999999999999", "-99999999999999999999", "0x10", "nan"]
    static let httpDates = [
        "Mon, 01 Jan 0000 00:00:00 GMT", "Fri, 01 Jan 10000 00:00:00 GMT", "Fri, 01 Jan 99999 00:00:00 GMT",
        "Fri, 01 Jan 999999 00:00:00 GMT", "Fri, 01 Jan -9999 00:00:00 GMT", "Sun Nov  6 08:49:37 99999999999",
    ]

    @Test("SDK and strata ls: a getcontentlength or getlastmodified out of range is dropped, never a trap", arguments: zip(sizeTexts, httpDates + ["x", "y"]))
    func webdavProperties(_ size: String, _ modified: String) async throws {
        try await Hostile.withServer(.webdavProperties(size: size, modified: modified)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                guard case .value(let items) = outcome else {
                    #expect(outcome.code == .invalidResponse, "\(outcome)")
                    return
                }
                let item = try #require(items.first)
                #expect(item.size == nil || item.size! >= 0, "size \(String(describing: item.size)) from \(size)")
                if let date = item.modified { #expect(UnixTime.contains(date), "\(date) from \(modified)") }
            }
            for json in [false, true] {
                let run = try await StrataCLI.run(["ls", Hostile.target("webdav", server, "/")] + (json ? ["--json"] : []))
                #expect(!run.trapped && !run.killed, "strata ls died of signal \(run.status): \(run.error)")
                if run.status == 0 { #expect(run.outputText.contains("file.bin")) }
                #expect(!run.outputText.contains("-5 B") && !run.outputText.contains("\"size\" : -"), "\(run.outputText)")
            }
        }
    }

    @Test("SDK: a Nuxeo blob length or lastModified out of range is refused or dropped, never negative",
        arguments: zip([#""-5""#, "-5", "1e300", #""99999999999999999999""#, "-1e300"],
            ["0000-01-01T00:00:00.000Z", "10000-01-01T00:00:00Z", "99999-12-31T23:59:59.999Z", "-0001-01-01T00:00:00Z", "2023-13-45T99:99:99Z"]))
    func nuxeoProperties(_ length: String, _ modified: String) async throws {
        try await Hostile.withServer(.nuxeoProperties(length: length, modified: modified)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.nuxeo(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                switch outcome {
                case .value(let items):
                    let item = try #require(items.first)
                    #expect(item.size == nil || item.size! >= 0, "size \(String(describing: item.size)) from \(length)")
                    if let date = item.modified { #expect(UnixTime.contains(date), "\(date) from \(modified)") }
                case .failure(let error):
                    #expect(error.code == .invalidResponse, "\(error)")
                default:
                    Issue.record("listing \(outcome)")
                }
            }
            let run = try await StrataCLI.run(["ls", Hostile.target("nuxeo", server, "/nuxeo/"), "-u", Hostile.user, "--json"])
            #expect(!run.trapped && !run.killed, "strata ls died of signal \(run.status): \(run.error)")
        }
    }

    @Test(
        "a Retry-After out of range is no trap and no negative or endless wait",
        arguments: [
            "99999999999999999999", "-5", "+5", " 1e3", "9223372036854775807", "-9223372036854775808", "nan",
            "Fri, 01 Jan 999999 00:00:00 GMT", "Sun Nov  6 08:49:37 99999999999", "Sunday, 06-Nov-99999999 08:49:37 GMT",
            "Mon, 01 Jan -99999 00:00:00 GMT",
        ])
    func retryAfter(_ value: String) throws {
        let url = try #require(URL(string: "http://127.0.0.1/"))
        let response = TransportResponse(status: 503, headers: ["Retry-After": value], url: url)
        if let delay = response.retryAfter { #expect(delay >= .zero, "\(delay)") }
    }
}
