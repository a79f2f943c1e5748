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
                // Give the server a moment to notice the closed connection.
                try await Task.sleep(for: .milliseconds(300))
                #expect(server.bytesSent(to: propfind) < Int64(total / 2), "the client read \(server.bytesSent(to: propfind)) bytes")
            }
        }
    }
}
