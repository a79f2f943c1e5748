import Foundation
import HostileTestServer
import ProviderAPI
import Testing
import WebDAVProvider

/// A WebDAV server that misplaces names on the route uploads take, or answers ranges wrong
/// (issue 30): what the verifier proves on that route keeps every name in its place, and
/// declares ranges only where they are right.
@Suite("WebDAV routes proved on hostile servers")
struct RouteTests {
    /// Names a server that decodes `Destination` would cut, and some it would not.
    static let awkward = [
        "a?b.txt", "c;d.txt", "e?f;g.txt", "h#i.txt", "q?x", "q?y", "semi;colon;s.txt", "j&k.txt", "100%41.txt", "l+m.txt",
        "n%o.txt", "plain.txt",
    ]

    @Test("put of awkward names onto a server that cuts MOVE's Destination at ? ; #: every name lands as sent or mapped, none elsewhere")
    func putAwkwardNames() async throws {
        let store = HostileDAVStore(.init(destinationCut: ["?", ";", "#"], keepsPartialBodies: true))
        try await Hostile.withServer(store.scenario) { server in
            let local = try Hostile.temporaryFolder("route")
            defer { try? FileManager.default.removeItem(at: local) }
            for name in Self.awkward {
                try Data(name.utf8).write(to: local.appendingPathComponent(name))
            }
            let run = try await StrataCLI.run(
                ["put", local.path, Hostile.target("webdav", server, "/up"), "-u", Hostile.user], directory: local.deletingLastPathComponent())
            let landed = store.files.filter { $0.key.hasPrefix("/up/") }
            // Each file's content is its source name: where did each one land?
            let lookAlikes = NameEncoder(
                rules: NameRules(
                    forbiddenCharacters: Set(WebDAVCapabilityVerifier.nameCharacters), allowsLeadingSpace: false,
                    allowsTrailingSpace: false, allowsTrailingDot: false))
            for (path, content) in landed {
                let source = String(decoding: content, as: UTF8.self)
                let name = String(path.dropFirst("/up/".count))
                #expect(
                    Array(name.unicodeScalars) == Array(source.unicodeScalars)
                        || Array(lookAlikes.decode(name).unicodeScalars) == Array(source.unicodeScalars),
                    "\(source) landed as \(name)")
            }
            #expect(landed.count == Self.awkward.count, "\(landed.keys.sorted())\n\(run.outputText)\n\(run.error)")
            #expect(Set(landed.values.map { String(decoding: $0, as: UTF8.self) }) == Set(Self.awkward))
            #expect(run.status == 0, "\(run.outputText)\n\(run.error)")
            // The names the MOVE would cut were mapped, not sent.
            #expect(landed.keys.contains("/up/a\u{FF1F}b.txt"), "\(landed.keys.sorted())")
        }
    }

    @Test(
        "a 206 without Content-Range, off by one, or a suffix range that drops the connection: no ranges declared, downloads whole",
        arguments: [HostileDAVStore.Quirks.Ranges.noContentRange, .offByOne, .dropsSuffix])
    func wrongRanges(ranges: HostileDAVStore.Quirks.Ranges) async throws {
        let store = HostileDAVStore(.init(ranges: ranges))
        try await Hostile.withServer(store.scenario) { server in
            try await Hostile.withTransport { transport in
                let provider = try await WebDAVProvider.connect(Hostile.configuration(server.url, transport: transport))
                _ = try await provider.upload(data: Data("0123456789".utf8), to: "/f.txt")
                let verified = provider.profile.verified
                #expect(verified.servesRanges == false, "\(verified)")
                #expect(verified.rangeProblems?.isEmpty == false)
                #expect(!provider.capabilities.supports(.rangeDownload))
                #expect(!provider.capabilities.supports(.resumeDownload))
                #expect(String(decoding: try await provider.data(at: "/f.txt"), as: UTF8.self) == "0123456789")
            }
        }
    }

    @Test("strata get --resume from a server not shown to serve ranges downloads from the start, and says so")
    func resumeRestarts() async throws {
        let store = HostileDAVStore(.init(ranges: .offByOne))
        try await Hostile.withServer(store.scenario) { server in
            try await Hostile.withTransport { transport in
                let provider = try WebDAVProvider(configuration: Hostile.configuration(server.url, transport: transport))
                _ = try await provider.upload(data: Data("0123456789".utf8), to: "/f.txt")
            }
            let local = try Hostile.temporaryFolder("resume")
            defer { try? FileManager.default.removeItem(at: local) }
            let target = local.appendingPathComponent("f.txt")
            try Data("01234".utf8).write(to: local.appendingPathComponent("f.txt.strata-partial"))
            let run = try await StrataCLI.run(
                ["get", Hostile.target("webdav", server, "/f.txt"), target.path, "--resume", "-u", Hostile.user], directory: local)
            #expect(run.status == 0, "\(run.outputText)\n\(run.error)")
            #expect(run.error.contains("downloading from the start"), "\(run.error)")
            #expect(String(decoding: try Data(contentsOf: target), as: UTF8.self) == "0123456789")
            #expect(!server.requests.contains { $0.method == "GET" && $0.header("Range") != nil }, "no range was asked")
        }
    }

    @Test("a server whose ranges are right: ranges and resume declared once verified")
    func rightRanges() async throws {
        let store = HostileDAVStore(.init())
        try await Hostile.withServer(store.scenario) { server in
            try await Hostile.withTransport { transport in
                let provider = try await WebDAVProvider.connect(Hostile.configuration(server.url, transport: transport))
                #expect(!provider.capabilities.supports(.rangeDownload))
                _ = try await provider.upload(data: Data("0123456789".utf8), to: "/f.txt")
                #expect(provider.profile.verified.servesRanges == true, "\(provider.profile.verified)")
                #expect(provider.capabilities.supports(.rangeDownload))
                #expect(provider.capabilities.supports(.resumeDownload))
            }
        }
    }
}
