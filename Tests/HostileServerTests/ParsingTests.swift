import Foundation
import HostileTestServer
import ProviderAPI
import Testing

/// Class 8: markup a server streams without end. A multistatus that is a 40 MB unterminated
/// comment (or a 20 MB attribute) is refused with `invalidResponse` once it passes the reader's
/// limit, long before the server has sent it all.
@Suite("Hostile class 8: endless markup is refused at its length limit")
struct ParsingTests {
    @Test("a 40 MB unterminated comment: invalidResponse, and the client stops reading early")
    func unterminatedComment() async throws {
        try await refused(.unterminatedComment(), total: HostileScenario.fortyMegabytes, construct: "comment")
    }

    @Test("a 20 MB attribute value: invalidResponse, and the client stops reading early")
    func hugeAttribute() async throws {
        try await refused(.hugeAttribute(), total: 20 << 20, construct: nil)
    }

    func refused(_ scenario: HostileScenario, total: Int, construct: String?) async throws {
        try await Hostile.withServer(scenario) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome(within: .seconds(120)) { try await provider.listAll(.root).count }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                if let construct {
                    #expect(outcome.error?.message?.contains("XML \(construct) longer than") == true, "\(outcome)")
                }
                let propfind = try #require(server.requests.first { $0.method == "PROPFIND" })
                // Once the server has noticed the closed connection, the count is final.
                #expect(await server.answerEnded(propfind), "the server stopped answering")
                #expect(server.bytesSent(to: propfind) < Int64(total / 2), "the client read \(server.bytesSent(to: propfind)) bytes")
            }
        }
    }

    @Test("a Nuxeo answer of endless JSON (nesting, a string, a number) or a million keys: refused or parsed, the client stops early",
        arguments: EndlessJSON.allCases)
    func nuxeoEndlessJSON(_ shape: EndlessJSON) async throws {
        try await Hostile.withServer(.nuxeoEndlessJSON(shape)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.nuxeo(server, transport)
                let outcome = await Hostile.outcome(within: .seconds(120)) { try await provider.listAll(.root).count }
                if shape == .keys, case .value = outcome { return }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                guard shape != .keys, let children = server.requests.first(where: { $0.path.hasSuffix("@children") }) else { return }
                #expect(await server.answerEnded(children), "the server stopped answering")
                #expect(server.bytesSent(to: children) < Int64(HostileScenario.endlessJSONBytes / 2), "the client read \(server.bytesSent(to: children)) bytes")
            }
        }
    }

    @Test("a multistatus with a UTF-8 byte order mark is read")
    func utf8BOM() async throws {
        try await Hostile.withServer(.webdavEncoding(utf16: false)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root).map(\.name) }
                guard case .value(let names) = outcome else {
                    Issue.record("listing \(outcome)")
                    return
                }
                #expect(names == [HostileScenario.fileName])
            }
        }
    }

    @Test("a multistatus in UTF-16: invalidResponse, not names made of garbage")
    func utf16() async throws {
        try await Hostile.withServer(.webdavEncoding(utf16: true)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root).map(\.name) }
                if case .value(let names) = outcome {
                    #expect(names == [HostileScenario.fileName])
                } else {
                    #expect(outcome.code == .invalidResponse, "\(outcome)")
                }
            }
        }
    }

    @Test("a response head that never ends: an error, and the client stops reading early", arguments: [false, true])
    func endlessHead(_ lines: Bool) async throws {
        try await Hostile.withServer(.endlessHead(lines: lines)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome(within: .seconds(120)) { try await provider.listAll(.root).count }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                #expect(server.requests.filter { $0.method == "PROPFIND" }.count == 1, "a malformed answer was asked again")
                let propfind = try #require(server.requests.first { $0.method == "PROPFIND" })
                #expect(await server.answerEnded(propfind), "the server stopped answering")
                #expect(server.bytesSent(to: propfind) < Int64(HostileScenario.endlessHeadBytes / 2), "the client read \(server.bytesSent(to: propfind)) bytes")
            }
        }
    }
}
