import Foundation
import HostileTestServer
import ProviderAPI
import Testing
import WebDAVProvider

/// Issue 30: generic fallbacks for servers that answer unlike RFC 4918 (copyparty, chezdav).
/// The adapter looks up what is there instead of believing a status, and one unusable entry
/// costs that entry, not the listing.
@Suite("Hostile: WebDAV fallbacks for quirky answers")
struct FallbackTests {
    @Test("MOVE and COPY with Overwrite: F answered 400 onto a taken name: alreadyExists; onto a free one: the server's 400")
    func transferAnswered400() async throws {
        try await Hostile.withServer(.quirkyWrites()) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                for copy in [false, true] {
                    let taken = await Hostile.outcome {
                        copy ? try await provider.copy("/src.txt", to: "/taken.txt", options: TransferOptions(overwrite: false))
                            : try await provider.move("/src.txt", to: "/taken.txt", options: TransferOptions(overwrite: false))
                    }
                    #expect(taken.code == .alreadyExists, "copy \(copy): \(taken)")
                    let free = await Hostile.outcome {
                        copy ? try await provider.copy("/src.txt", to: "/free.txt", options: TransferOptions(overwrite: false))
                            : try await provider.move("/src.txt", to: "/free.txt", options: TransferOptions(overwrite: false))
                    }
                    #expect(free.error?.httpStatus == 400 && free.code != .alreadyExists, "copy \(copy): \(free)")
                }
            }
        }
    }

    @Test("MKCOL answered 500 over a file or a folder: alreadyExists; over nothing: the server's 500")
    func mkcolAnswered500() async throws {
        try await Hostile.withServer(.quirkyWrites()) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                for name in ["taken.txt", "dir"] {
                    let outcome = await Hostile.outcome { try await provider.createFolder(named: name, in: .root) }
                    #expect(outcome.code == .alreadyExists, "\(name): \(outcome)")
                }
                let fresh = await Hostile.outcome { try await provider.createFolder(named: "fresh", in: .root) }
                #expect(fresh.error?.httpStatus == 500 && fresh.code != .alreadyExists, "\(fresh)")
            }
        }
    }

    @Test("an upload into a missing folder on a server that would create it: notFound, and no PUT is sent")
    func putIntoMissingFolder() async throws {
        try await Hostile.withServer(.quirkyWrites()) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome {
                    try await provider.upload(DataSource(string: "x"), to: "/missing", name: "child.txt", options: UploadOptions())
                }
                #expect(outcome.code == .notFound, "\(outcome)")
                #expect(!server.requests.contains { $0.method == "PUT" }, "\(server.requests.map(\.method))")
                // Into a folder that exists, the upload goes ahead.
                let placed = await Hostile.outcome {
                    try await provider.upload(
                        DataSource(string: "x"), to: "/dir", name: "child.txt", options: UploadOptions(readBack: false))
                }
                #expect(placed.code == nil, "\(placed)")
                #expect(server.requests.contains { $0.method == "PUT" && $0.path == "/dir/child.txt" })
            }
        }
    }

    @Test("a listing with empty hrefs and a root href without its slash: the named entry kept, the unnamed one dropped, the listing partial")
    func unusableHrefs() async throws {
        try await Hostile.withServer(.unusableHrefs()) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.list(.root, page: PageRequest()) }
                guard case .value(let page) = outcome else {
                    Issue.record("listing: \(outcome)")
                    return
                }
                #expect(page.items.map(\.name) == [HostileScenario.fileName, "named.txt"])
                #expect(page.completeness == .partial)
            }
        }
    }

    @Test("a root href http://host:port (no slash) lists the root, complete")
    func rootHrefWithoutSlash() async throws {
        try await Hostile.withServer(.unusableHrefs(emptyEntries: false)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.list(.root, page: PageRequest()) }
                guard case .value(let page) = outcome else {
                    Issue.record("listing: \(outcome)")
                    return
                }
                #expect(page.items.map(\.name) == [HostileScenario.fileName])
                #expect(page.completeness == .ended)
            }
        }
    }

    @Test("getlastmodified in RFC 1123, RFC 850, asctime and ISO 8601 (fractions, zones, none) is read",
        arguments: [
            "Tue, 02 Jan 2024 10:00:00 GMT", "Tuesday, 02-Jan-24 10:00:00 GMT", "Tue Jan  2 10:00:00 2024",
            "2024-01-02T10:00:00Z", "2024-01-02T10:00:00.000Z", "2024-01-02T10:00:00.123456Z", "2024-01-02T12:00:00+02:00",
            "2024-01-02T10:00:00", "2024-01-02T10:00:00.5",
        ])
    func modifiedDates(_ text: String) async throws {
        try await Hostile.withServer(.webdavProperties(size: "3", modified: text)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome = await Hostile.outcome { try await provider.listAll(.root) }
                guard case .value(let items) = outcome, let modified = items.first?.modified else {
                    Issue.record("\(text): \(outcome)")
                    return
                }
                let expected = Date(timeIntervalSince1970: 1_704_189_600)
                #expect(abs(modified.timeIntervalSince(expected)) < 1, "\(text) read as \(modified)")
            }
        }
    }

    @Test("a MKCOL and a PROPFIND that meet a connection the server closed without a word are sent again",
        arguments: ["MKCOL", "PROPFIND", "DELETE"])
    func closedConnectionRetried(_ method: String) async throws {
        try await Hostile.withServer(.closesFirst(method)) { server in
            try await Hostile.withTransport { transport in
                let provider = try Hostile.webdav(server, transport)
                let outcome: Hostile.Outcome<String>
                switch method {
                case "MKCOL": outcome = await Hostile.outcome { try await provider.createFolder(named: "made", in: .root).name }
                case "DELETE": outcome = await Hostile.outcome { try await provider.delete("/src.txt")
                    return "deleted" }
                default: outcome = await Hostile.outcome { try await provider.item(at: "/dir").name }
                }
                #expect(outcome.code == nil, "\(method): \(outcome)")
                #expect(server.requests.filter { $0.method == method }.count == 2)
            }
        }
    }
}
