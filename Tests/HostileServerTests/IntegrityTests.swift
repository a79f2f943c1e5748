import Foundation
import HostileTestServer
import ProviderAPI
import ProviderKit
import Testing

/// Class 4: integrity by every size Strata knows. A body cut short of its `Content-Length` or
/// of the size the listing reported is `network`; more than declared is `integrity`; a 206 for a
/// range not asked is `invalidResponse`. Nothing is ever left under the final name.
@Suite("Hostile class 4: a download that lies about its size is refused")
struct IntegrityTests {
    /// Downloads `/file.bin` from the WebDAV scenario into a folder; returns the outcome and what the folder holds after.
    func download(
        _ scenario: HostileScenario, options: DownloadOptions = DownloadOptions(), statFirst: Bool = false
    ) async throws -> (Hostile.Outcome<DownloadResult>, Set<String>) {
        try await Hostile.withServer(scenario) { server in
            // These cases are about sizes, not speed: a minimum-speed window of 30 s (not 2) keeps
            // a loaded machine's pauses from ending a 400-byte download as "slower than" before
            // its cut is seen.
            try await Hostile.withTransport(speedWindow: .seconds(30)) { transport in
                let folder = try Hostile.temporaryFolder("integrity")
                defer { try? FileManager.default.removeItem(at: folder) }
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName)
                let outcome = await Hostile.outcome {
                    if statFirst { _ = try await provider.item(at: "/file.bin") }
                    return try await provider.download("/file.bin", to: sink, options: options)
                }
                return (outcome, Hostile.contents(of: folder))
            }
        }
    }

    @Test("a body cut short of its Content-Length: network")
    func cutWithLength() async throws {
        let (outcome, left) = try await download(.cutWithLength)
        #expect(outcome.code == .network, "\(outcome)")
        #expect(!left.contains(HostileScenario.fileName))
    }

    @Test("a body without length cut short of the PROPFIND size: network, never accepted short")
    func cutWithoutLength() async throws {
        for statFirst in [false, true] {
            let (outcome, left) = try await download(.cutWithoutLength, statFirst: statFirst)
            #expect(outcome.code == .network, "statFirst \(statFirst): \(outcome)")
            #expect(outcome.error?.message?.contains("the body ended after 400 of 1000 bytes") == true, "\(outcome)")
            #expect(!left.contains(HostileScenario.fileName))
        }
    }

    @Test("a body longer than the PROPFIND size: integrity")
    func longerThanDeclared() async throws {
        let (outcome, left) = try await download(.longerThanDeclared)
        #expect(outcome.code == .integrity, "\(outcome)")
        #expect(!left.contains(HostileScenario.fileName))
    }

    @Test("a 206 for a download that asked no range: invalidResponse")
    func unaskedPartial() async throws {
        let (outcome, left) = try await download(.unaskedPartial)
        #expect(outcome.code == .invalidResponse, "\(outcome)")
        #expect(outcome.error?.message?.contains("206 for a range that was not asked") == true, "\(outcome)")
        #expect(!left.contains(HostileScenario.fileName))
    }

    @Test("a 206 that does not start where the range asked: invalidResponse")
    func lyingContentRange() async throws {
        try await Hostile.withServer(.lyingContentRange) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let sink = MemorySink()
                let outcome = await Hostile.outcome {
                    try await provider.download("/file.bin", to: sink, options: DownloadOptions(range: .from(500)))
                }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                #expect(server.requests.last?.header("Range") == "bytes=500-")
            }
        }
    }

    @Test("Pydio: a download without length cut short of the ls bytesize: network")
    func pydioCutWithoutLength() async throws {
        try await Hostile.withServer(.pydioCutWithoutLength) { server in
            try await Hostile.withTransport { transport in
                let folder = try Hostile.temporaryFolder("pydio-cut")
                defer { try? FileManager.default.removeItem(at: folder) }
                let provider = try Hostile.pydio(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions()) }
                #expect(outcome.code == .network, "\(outcome)")
                #expect(!Hostile.contents(of: folder).contains(HostileScenario.fileName))
            }
        }
    }

    @Test("strata get of a body cut without length fails and leaves no file")
    func cliCutWithoutLength() async throws {
        try await Hostile.withServer(.cutWithoutLength) { server in
            let folder = try Hostile.temporaryFolder("cli-cut")
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await StrataCLI.run(["get", Hostile.target("webdav", server, "/file.bin"), folder.path])
            #expect(!run.trapped && !run.killed, "\(run.error)")
            #expect(run.status != 0, "strata get accepted a truncated body")
            #expect(!Hostile.contents(of: folder).contains(HostileScenario.fileName))
        }
    }

    @Test("a resume answered 200 with the whole file starts over: the partial bytes are not kept in front of it")
    func resumeAnsweredWhole() async throws {
        let content = HostileDAV.content(3000)
        try await Hostile.withServer(.webdavFile(content)) { server in
            try await Hostile.withTransport { transport in
                let folder = try Hostile.temporaryFolder("resume-200")
                defer { try? FileManager.default.removeItem(at: folder) }
                // 500 bytes of something else, as an earlier download of another version left them (with its etag).
                try Data(repeating: UInt8(ascii: "Z"), count: 500).write(to: folder.appendingPathComponent("file.bin.strata-partial"))
                try Data(#""e0""#.utf8).write(to: folder.appendingPathComponent("file.bin.strata-partial.etag"))
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName, resumable: true)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions(resume: true)) }
                if case .value = outcome {} else { Issue.record("download \(outcome)") }
                #expect(server.requests.contains { $0.header("Range") == "bytes=500-" }, "the download did not try to resume")
                #expect((try? Data(contentsOf: folder.appendingPathComponent(HostileScenario.fileName))) == Data(content))
            }
        }
    }

    @Test("a resume whose Content-Range total differs from the listed size: refused, nothing under the final name")
    func resumeTotalDiffersFromListing() async throws {
        let content = HostileDAV.content(3000)
        // PROPFIND says 2000 bytes; the ranges say 3000.
        try await Hostile.withServer(.webdavRangeFile(content, listedSize: 2000)) { server in
            try await Hostile.withTransport { transport in
                let folder = try Hostile.temporaryFolder("resume-total")
                defer { try? FileManager.default.removeItem(at: folder) }
                try Data(content.prefix(500)).write(to: folder.appendingPathComponent("file.bin.strata-partial"))
                try Data(#""e1""#.utf8).write(to: folder.appendingPathComponent("file.bin.strata-partial.etag"))
                let provider = try Hostile.webdav(server, transport)
                let sink = try FileSink(folder: folder, name: HostileScenario.fileName, resumable: true)
                let outcome = await Hostile.outcome {
                    _ = try await provider.item(at: "/file.bin")
                    var options = DownloadOptions(resume: true)
                    options.verifyDigest = true
                    return try await provider.download("/file.bin", to: sink, options: options)
                }
                // Either the listing's size is checked (integrity), or the file is the server's whole, true content.
                if case .value = outcome {
                    #expect((try? Data(contentsOf: folder.appendingPathComponent(HostileScenario.fileName))) == Data(content))
                } else {
                    #expect([.integrity, .network, .conflict, .invalidResponse].contains(outcome.code), "\(outcome)")
                    #expect(!Hostile.contents(of: folder).contains(HostileScenario.fileName))
                }
            }
        }
    }

    @Test("a 206 with a malformed Content-Range to a resume: invalidResponse",
        arguments: ["bytes +500-999/1000", "bytes 500-999/-1000", "bytes 500-99999999999999999999/1000", "bytes 500-999/1e3", "bytes 999-500/1000"])
    func malformedContentRange(_ value: String) async throws {
        let scenario = HostileScenario.webdav("a Content-Range of \(value)") { _, _ in
            .complete(206, headers: [("Content-Type", "application/octet-stream"), ("Content-Range", value), ("ETag", #""e1""#)],
                body: Array(HostileDAV.content(HostileScenario.fileSize).suffix(500)))
        }
        try await Hostile.withServer(scenario) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome {
                    try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions(range: .from(500)))
                }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
            }
        }
    }
}
