import Foundation
import HostileTestServer
import ProviderAPI
import ProviderKit
import Testing
import WebDAVProvider

/// Class 2: deadlines. A server that never answers, stops after its head, trickles, or sends a
/// redirect body that never ends fails within the configured short deadlines (read timeout 1 s for the stalls,
/// minimum speed 1000 B/s over 2 s) instead of hanging; the tests only bound the wait.
@Suite("Hostile class 2: stalls, trickles and endless redirect bodies fail by the deadlines")
struct DeadlineTests {
    @Test("a server that accepts and never answers is asked twice, not as often as the policy allows (issue 34: 121 s to fail by default)")
    func silentAskedTwice() async throws {
        try await Hostile.withServer(.stallBeforeHead) { server in
            try await Hostile.withTransport(readTimeout: .seconds(1)) { transport in
                var configuration = Hostile.configuration(server.url, transport: transport)
                configuration.retry = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10), maxDelay: .milliseconds(20))
                let provider = try WebDAVProvider(configuration: configuration)
                let outcome = await Hostile.outcome { try await provider.item(at: .root) }
                #expect(outcome.code == .network, "\(outcome)")
                #expect(outcome.error?.message?.contains("no data for 1 s") == true, "\(outcome)")
                #expect(server.requests.count == 2, "\(server.requests.map(\.method))")
            }
        }
    }

    @Test("a server that accepts and never answers: network, no data for 1 s")
    func stallBeforeHead() async throws {
        try await Hostile.withServer(.stallBeforeHead) { server in
            try await Hostile.withTransport(readTimeout: .seconds(1)) { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.item(at: .root) }
                #expect(outcome.code == .network, "\(outcome)")
                #expect(outcome.error?.message?.contains("no data for 1 s") == true, "\(outcome)")
            }
        }
    }

    @Test("a head, then silence: network, and nothing under the final name")
    func stallAfterHead() async throws {
        let (outcome, left) = try await stalledDownload(.stallAfterHead, folder: "stall")
        #expect(outcome.code == .network, "\(outcome)")
        #expect(outcome.error?.message?.contains("no data for 1 s") == true, "\(outcome)")
        #expect(!left.contains(HostileScenario.fileName))
    }

    /// Downloads `/file.bin` into a new folder from a server playing `scenario`, with a 1 s
    /// no-data timeout: the outcome, and what the folder held afterwards.
    private func stalledDownload(
        _ scenario: HostileScenario, folder label: String
    ) async throws -> (outcome: Hostile.Outcome<DownloadResult>, left: Set<String>) {
        try await Hostile.withServer(scenario) { server in
            try await Hostile.withTransport(readTimeout: .seconds(1)) { transport in
                let folder = try Hostile.temporaryFolder(label)
                defer { try? FileManager.default.removeItem(at: folder) }
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions()) }
                return (outcome, Hostile.contents(of: folder))
            }
        }
    }

    @Test("one byte every 200 ms: network, slower than the minimum speed")
    func trickle() async throws {
        try await Hostile.withServer(.trickle(interval: .milliseconds(200))) { server in
            try await Hostile.withTransport(speedWindow: .seconds(2)) { transport in
                let folder = try Hostile.temporaryFolder("trickle")
                defer { try? FileManager.default.removeItem(at: folder) }
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions()) }
                #expect(outcome.code == .network, "\(outcome)")
                #expect(outcome.error?.message?.contains("slower than 1000 bytes/s for 2 s") == true, "\(outcome)")
                #expect(!Hostile.contents(of: folder).contains(HostileScenario.fileName))
            }
        }
    }

    @Test("a 302 whose body never ends is followed without reading the body to its end")
    func endlessRedirectBody() async throws {
        try await Hostile.withServer(.endlessRedirectBody) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let sink = MemorySink()
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions()) }
                guard case .value = outcome else {
                    Issue.record("download \(outcome)")
                    return
                }
                #expect(await sink.bytes == HostileDAV.content(HostileScenario.fileSize))
                #expect(server.requests.map(\.path).contains("/moved.bin"))
                // The redirect's body was dropped early: far less than what the server would send.
                if let redirect = server.requests.first(where: { $0.path == "/file.bin" }) {
                    #expect(server.bytesSent(to: redirect) < 6_000 * 1024)
                }
            }
        }
    }

    @Test("a refused port: network, connection refused")
    func refused() async throws {
        // A port bound but not listening refuses, and stays ours: a stopped server's port could
        // be taken by another test's server in the meantime.
        let reserved = try ReservedPort()
        defer { reserved.close() }
        let url = try #require(URL(string: "http://127.0.0.1:\(reserved.port)/"))
        try await Hostile.withTransport { transport in
            let provider = try Hostile.webdav(at: url, transport)
            let outcome = await Hostile.outcome { try await provider.item(at: .root) }
            #expect(outcome.code == .network, "\(outcome)")
            #expect(outcome.error?.message?.contains("connection refused") == true, "\(outcome)")
        }
    }

    @Test("an unknown host: network, cannot resolve host")
    func unknownHost() async throws {
        let url = try #require(URL(string: "http://no-such-host.invalid/"))
        try await Hostile.withTransport { transport in
            let provider = try Hostile.webdav(at: url, transport)
            let outcome = await Hostile.outcome { try await provider.item(at: .root) }
            #expect(outcome.code == .network, "\(outcome)")
            #expect(outcome.error?.message?.contains("cannot resolve host") == true, "\(outcome)")
        }
    }

    @Test("strata ls against a stalled server says on stderr that it retries, and why")
    func cliRetryNotice() async throws {
        try await Hostile.withServer(.stallBeforeHead) { server in
            let run = try await StrataCLI.run(["ls", Hostile.target("webdav", server, "/")] + Hostile.cliDeadlineArguments)
            #expect(!run.trapped && !run.killed, "\(run.error)")
            #expect(run.status != 0)
            #expect(run.error.contains("strata: retrying"), "\(run.error)")
            #expect(run.error.contains("no data for 1 s"), "\(run.error)")
        }
    }

    @Test("a chunked body whose last chunk never comes: network, no data for 1 s, nothing under the final name")
    func chunkedNeverEnds() async throws {
        let (outcome, left) = try await stalledDownload(.chunkedNeverEnds, folder: "chunked")
        #expect(outcome.code == .network, "\(outcome)")
        #expect(outcome.error?.message?.contains("no data for 1 s") == true, "\(outcome)")
        #expect(left.isEmpty, "\(left)")
    }

    @Test("a 100 Continue, then silence: network, no data for 1 s")
    func continueThenSilence() async throws {
        try await Hostile.withServer(.continueThenSilence) { server in
            try await Hostile.withTransport(readTimeout: .seconds(1)) { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions()) }
                #expect(outcome.code == .network, "\(outcome)")
            }
        }
    }

    @Test("a PUT taken whole and never answered: network, no data for 1 s", arguments: [10, 1 << 20])
    func silentAfterUpload(_ size: Int) async throws {
        try await Hostile.withServer(.silentAfterUpload) { server in
            try await Hostile.withTransport(readTimeout: .seconds(1)) { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome {
                    try await provider.upload(
                        DataSource(Data(repeating: 0x61, count: size)), to: .root, name: "up.bin", options: UploadOptions(readBack: false))
                }
                #expect(outcome.code == .network, "\(outcome)")
            }
        }
    }

    @Test("a response head trickled a byte per 300 ms (each inside the 1 s read timeout): network, not a hang")
    func trickledHead() async throws {
        try await Hostile.withServer(.trickledHead(interval: .milliseconds(300))) { server in
            try await Hostile.withTransport(readTimeout: .seconds(1), speedWindow: .seconds(2)) { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome(within: .seconds(60)) {
                    try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions())
                }
                #expect(outcome.code == .network, "\(outcome)")
            }
        }
    }
}
