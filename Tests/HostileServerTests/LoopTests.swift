import Foundation
import HostileTestServer
import ProviderAPI
import Testing

/// Class 3: page loops a server controls. A Nuxeo or Pydio server that always says "there is
/// another page" (the same page again, or endless new entries) stops the listing with
/// `invalidResponse` (a repeated page, or past the configured ceiling) instead of growing forever.
@Suite("Hostile class 3: endless pages stop with invalidResponse")
struct LoopTests {
    static let cases: [(EndlessPaging, Int?)] = EndlessPaging.allCases.flatMap { paging in [(paging, nil), (paging, 5)] }

    @Test("Nuxeo @children with isNextPageAvailable forever", arguments: cases)
    func nuxeo(_ paging: EndlessPaging, _ pageSize: Int?) async throws {
        try await Hostile.withServer(.nuxeoPages(paging)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.nuxeo(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root, pageSize: pageSize).count }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                #expect(server.requests.count < 1_000, "the listing stopped early: \(server.requests.count) requests")
            }
        }
    }

    @Test("Pydio ls with a pagination that never ends", arguments: cases)
    func pydio(_ paging: EndlessPaging, _ pageSize: Int?) async throws {
        try await Hostile.withServer(.pydioPages(paging)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.pydio(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root, pageSize: pageSize).count }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                #expect(server.requests.count < 1_000, "the listing stopped early: \(server.requests.count) requests")
            }
        }
    }

    @Test("children(of:) stops too, on the same page again")
    func childrenSequence() async throws {
        try await Hostile.withServer(.nuxeoPages(.samePage)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.nuxeo(server, transport)
                let outcome = await Hostile.outcome {
                    var count = 0
                    for try await _ in provider.children(of: .root, pageSize: 5) { count += 1 }
                    return count
                }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
            }
        }
    }

    @Test("strata ls stops on a page that repeats", arguments: ["nuxeo", "pydio"])
    func cli(_ kind: String) async throws {
        let scenario: HostileScenario = kind == "nuxeo" ? .nuxeoPages(.samePage) : .pydioPages(.samePage)
        try await Hostile.withServer(scenario) { server in
            let target = kind == "nuxeo" ? Hostile.target("nuxeo", server, "/nuxeo/") : Hostile.target("pydio", server, "/pydio/ws/")
            let run = try await StrataCLI.run(["ls", target, "-u", Hostile.user], limit: 120)
            #expect(!run.trapped && !run.killed, "strata ls \(run.killed ? "ran past 45 s" : "trapped"): \(run.error.suffix(300))")
            #expect(run.status != 0)
            #expect(run.error.contains("invalidResponse") || run.error.lowercased().contains("repeat"), "\(run.error.suffix(300))")
        }
    }

    @Test("a WebDAV multistatus of more responses than maxEntries: invalidResponse, the client stops reading")
    func webdavManyResponses() async throws {
        try await Hostile.withServer(.webdavManyResponses(40_000)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root).count }
                #expect(outcome.code == .invalidResponse, "\(outcome)")
                #expect(outcome.error?.message?.contains("10000 entries") == true, "\(outcome)")
            }
        }
    }
}
