import Foundation
import HostileTestServer
import NIOConcurrencyHelpers
import ProviderAPI
import Testing

/// Class 5: secrets crossing origins in bodies. A login form or an upload body answered by a
/// 307 to another origin (a second hostile server) is never sent there; credentials headers
/// never cross either; a `Location` that is not an http(s) URL with a host and a valid port is
/// `invalidResponse`.
@Suite("Hostile class 5: redirects never carry secrets or bodies to another origin")
struct RedirectTests {
    @Test("a Pydio login form answered by a 307 to another origin: forbidden, the other origin gets nothing")
    func pydioLoginForm() async throws {
        try await Hostile.withServer(.pydioListing) { other in
            try await Hostile.withServer(.pydioLoginRedirect(to: other.url)) { server in
                try await Hostile.withTransport { transport in
                    let provider = try Hostile.pydio(server, transport)
                    let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                    #expect(outcome.code == .forbidden, "\(outcome)")
                    #expect(outcome.error?.message?.contains("refused to send credentials to another origin") == true, "\(outcome)")
                    #expect(server.requests.contains { $0.formItems["password"] == Hostile.password }, "the login went to its own origin")
                    #expect(!other.requests.contains { $0.method == "POST" || $0.bodySize > 0 }, "\(other.requests.map(\.method))")
                    #expect(!other.requests.contains { $0.bodyText.contains(Hostile.password) || ($0.query ?? "").contains(Hostile.password) })
                }
            }
        }
    }

    @Test("a WebDAV PUT answered by a 307 to another origin: forbidden, the file's content is not sent there")
    func uploadBody() async throws {
        try await Hostile.withServer(.webdavFile(Array("other".utf8))) { other in
            try await Hostile.withServer(.uploadRedirect(to: other.url)) { server in
                try await Hostile.withTransport { transport in
                    let provider = try Hostile.webdav(server, transport)
                    let outcome = await Hostile.outcome {
                        try await provider.upload(DataSource(string: "private content"), to: .root, name: "up.bin", options: UploadOptions())
                    }
                    #expect(outcome.code == .forbidden, "\(outcome)")
                    #expect(outcome.error?.message?.contains("refused to send the request body to another origin") == true, "\(outcome)")
                    #expect(!other.requests.contains { $0.method == "PUT" || $0.bodySize > 0 }, "\(other.requests.map(\.method))")
                }
            }
        }
    }

    @Test("a same-origin 307 of a PUT is still followed with its body")
    func sameOriginUpload() async throws {
        let scenario = HostileScenario.webdav("a same-origin 307 of a PUT") { request, context in
            switch (request.method, request.path) {
            case ("PUT", "/up.bin"):
                return .complete(307, headers: [("Location", context.url("/moved.bin"))])
            case ("PUT", "/moved.bin"):
                return .complete(201, headers: [("ETag", #""e2""#)])
            default:
                return .text(404, "not found")
            }
        }
        try await Hostile.withServer(scenario) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome {
                    try await provider.upload(DataSource(string: "0123456789"), to: .root, name: "up.bin", options: UploadOptions(readBack: false))
                }
                if case .value = outcome {} else { Issue.record("upload \(outcome)") }
                #expect(server.requests.filter { $0.method == "PUT" }.map(\.bodySize) == [10, 10])
            }
        }
    }

    @Test("a GET redirected to another origin arrives there without the credentials")
    func crossOriginGet() async throws {
        let content = HostileDAV.content(HostileScenario.fileSize)
        try await Hostile.withServer(.webdavFile(content)) { other in
            try await Hostile.withServer(.redirect(to: other.url)) { server in
                try await Hostile.withTransport { transport in
                    let provider = try Hostile.webdav(server, transport)
                    let sink = MemorySink()
                    let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: sink, options: DownloadOptions()) }
                    if case .value = outcome {} else { Issue.record("download \(outcome)") }
                    #expect(await sink.bytes == content)
                    #expect(server.requests.contains { $0.header("Authorization") != nil }, "the own origin got the credentials")
                    #expect(!other.requests.isEmpty)
                    #expect(!other.requests.contains { $0.header("Authorization") != nil || $0.header("Cookie") != nil })
                }
            }
        }
    }

    @Test(
        "a Location that is not an http(s) URL with a host: invalidResponse",
        arguments: ["ftp://127.0.0.1/file.bin", "file:///etc/passwd", "http:///file.bin", "http://127.0.0.1:-1/file.bin", "::not a url::"])
    func invalidLocation(_ location: String) async throws {
        try await Hostile.withServer(.redirect(location: location)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions()) }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
            }
        }
    }

    @Test(
        "a Location with another scheme, a bad port, no host or a userinfo: invalidResponse, never followed",
        arguments: [
            "javascript:alert(1)", "data:text/plain,hi", "//127.0.0.1:99999/file.bin", "http://127.0.0.1:0/file.bin",
            "http://127.0.0.1:65536/file.bin", "http://ann:pw@127.0.0.1:99999/file.bin", "http://:80/file.bin",
            "http://127.0.0.1:+80/file.bin", "http://127.0.0.1:1e3/file.bin", "http://127.0.0.1:18446744073709551617/file.bin",
            "  http://127.0.0.1:99999/file.bin", "http://[::1]:99999/file.bin",
        ])
    func moreInvalidLocations(_ location: String) async throws {
        try await Hostile.withServer(.redirect(location: location)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions()) }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
            }
        }
    }

    @Test("a Location with an IPv6 zone or an unreachable literal: an error, never a trap", arguments: [
        "http://[fe80::1%25eth0]:1/file.bin", "http://[fe80::1%eth0]/file.bin", "http://[::ffff:127.0.0.1]:1/file.bin", "http://0:1/file.bin",
    ])
    func oddHostLocations(_ location: String) async throws {
        try await Hostile.withServer(.redirect(location: location)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions()) }
                #expect(outcome.code == .invalidResponse || outcome.code == .network, "\(outcome)")
            }
        }
    }

    @Test("a redirect loop across two origins ends with an error, and the other origin never gets the credentials")
    func loopAcrossOrigins() async throws {
        let first = NIOLockedValueBox<URL?>(nil)
        try await Hostile.withServer(.redirectLater(to: { first.withLockedValue { $0 } })) { other in
            try await Hostile.withServer(.redirect(to: other.url)) { server in
                first.withLockedValue { $0 = server.url }
                try await Hostile.withTransport { transport in
                    let provider = try Hostile.webdav(server, transport)
                    let outcome = await Hostile.outcome { try await provider.download("/file.bin", to: MemorySink(), options: DownloadOptions()) }
                    #expect(outcome.error != nil, "\(outcome)")
                    #expect(outcome.error?.message?.contains("too many redirects") == true, "\(outcome)")
                    #expect(server.requests.count + other.requests.count < 30)
                    #expect(!other.requests.contains { $0.header("Authorization") != nil })
                }
            }
        }
    }
}
