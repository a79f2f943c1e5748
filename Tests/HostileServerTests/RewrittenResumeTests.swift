import Foundation
import HostileTestServer
import ProviderAPI
import ProviderKit
import Testing

/// Issue 29, loss path 6: a resumed download of a file without an etag, rewritten in place at the
/// same size between the attempts, must never splice the old bytes and the new ones.
@Suite("Hostile: a resume without an etag never splices a file rewritten at the same size")
struct RewrittenResumeTests {
    /// A first download cut after 400 bytes (kept for a resume), `between` run, then a resumed
    /// download; returns its outcome, the final file's bytes and the server's requests.
    func resume(
        _ file: HostileRewrittenFile, between: @Sendable () -> Void = {}
    ) async throws -> (Hostile.Outcome<DownloadResult>, Data?, [HostileRequest]) {
        try await Hostile.withServer(file.scenario) { server in
            try await Hostile.withTransport(speedWindow: .seconds(30)) { transport in
                let folder = try Hostile.temporaryFolder("rewritten")
                defer { try? FileManager.default.removeItem(at: folder) }
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName, resumable: true)
                let cut = await Hostile.outcome {
                    try await provider.download("/file.bin", to: sink, options: DownloadOptions(resume: true, maxResumes: 0))
                }
                #expect(cut.code == .network, "the first download was not cut: \(cut)")
                between()
                let outcome = await Hostile.outcome {
                    try await provider.download("/file.bin", to: sink, options: DownloadOptions(resume: true, maxResumes: 0))
                }
                return (outcome, try? Data(contentsOf: folder.appendingPathComponent(HostileScenario.fileName)), server.requests)
            }
        }
    }

    @Test("a server honouring If-Range: the resume sends the Last-Modified date and gets the whole new file")
    func ifRangeWithDate() async throws {
        let file = HostileRewrittenFile()
        let (outcome, bytes, requests) = try await resume(file, between: file.rewrite)
        if case .value = outcome {} else { Issue.record("resume \(outcome)") }
        #expect(bytes == Data(file.second), "spliced or lost: \(bytes.map { Array($0.prefix(8)) } ?? [])")
        let resumed = requests.filter { $0.method == "GET" && $0.header("Range") != nil }
        #expect(!resumed.isEmpty, "the download did not try to resume")
        #expect(resumed.allSatisfy { $0.header("If-Range") == HostileRewrittenFile.dates[0] }, "a Range without the date as If-Range")
    }

    @Test("a server ignoring If-Range: a 206 whose Last-Modified is not the kept one starts over from byte 0")
    func serverIgnoresIfRange() async throws {
        let file = HostileRewrittenFile(honoursIfRange: false)
        let (outcome, bytes, requests) = try await resume(file, between: file.rewrite)
        if case .value = outcome {} else { Issue.record("resume \(outcome)") }
        #expect(bytes == Data(file.second), "spliced or lost")
        #expect(requests.last?.header("Range") == nil, "the last request was not a whole-file GET")
    }

    @Test("a Last-Modified in the same second as the answer is no validator: the partial bytes are dropped, never continued")
    func weakDate() async throws {
        let file = HostileRewrittenFile(dateSameSecond: true)
        let (outcome, bytes, requests) = try await resume(file, between: file.rewrite)
        if case .value = outcome {} else { Issue.record("resume \(outcome)") }
        #expect(bytes == Data(file.second), "spliced or lost")
        #expect(requests.allSatisfy { $0.header("Range") == nil }, "a blind Range was sent")
    }

    @Test("the file rewritten while a cut body is continued within the call: never spliced", arguments: [true, false])
    func rewrittenDuringContinuation(_ honoursIfRange: Bool) async throws {
        let file = HostileRewrittenFile(honoursIfRange: honoursIfRange, rewriteAfterFirstGet: true)
        try await Hostile.withServer(file.scenario) { server in
            try await Hostile.withTransport(speedWindow: .seconds(30)) { transport in
                let folder = try Hostile.temporaryFolder("rewritten-continued")
                defer { try? FileManager.default.removeItem(at: folder) }
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions()) }
                let bytes = try? Data(contentsOf: folder.appendingPathComponent(HostileScenario.fileName))
                if case .value = outcome {
                    #expect(bytes == Data(file.second), "spliced: the download returned a mix of both contents")
                } else {
                    #expect([.network, .conflict].contains(outcome.code), "\(outcome)")
                    #expect(bytes == nil, "a file was left under the final name")
                }
                let continued = server.requests.filter { $0.header("Range") != nil }
                #expect(continued.allSatisfy { $0.header("If-Range") == HostileRewrittenFile.dates[0] }, "a blind continuation")
            }
        }
    }
}
