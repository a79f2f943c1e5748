import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI
import StrataTestSupport
import Testing
import WebDAVProvider

/// `ItemFields`: a listing that needs no MIME type does not make the server look them up.
@Suite("Listing fields against the live servers", .liveServers)
struct ListingFieldsTests {
    /// Keeps the body of every PROPFIND it passes on.
    final class PropfindBodies: HTTPTransport, @unchecked Sendable {
        let base: any HTTPTransport
        private let lock = NSLock()
        private var bodies: [String] = []
        init(_ base: any HTTPTransport) { self.base = base }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            if request.method == .PROPFIND, case .bytes(let buffer)? = request.body {
                let text = String(buffer: buffer)
                lock.withLock { bodies.append(text) }
            }
            return try await base.send(request)
        }
        func takeLast() -> String? { lock.withLock { bodies.last } }
    }

    @Test("without .mimeType no getcontenttype is asked and every other field is the same", arguments: LiveServers.names)
    func withoutMimeType(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let (_, root, name) = try await LiveServers.scratch(server)
        defer { Task { try? await root.delete(try ItemPath(name)) } }
        let recorder = PropfindBodies(AsyncHTTPClientTransport.shared)
        let provider = try WebDAVProvider(configuration: LiveServers.configuration(server, folder: name, transport: recorder))
        _ = try await provider.upload(data: Data("plain text\n".utf8), to: "/note.txt")
        _ = try await provider.upload(data: Data("<html></html>".utf8), to: "/page.html")
        _ = try await provider.createFolder(named: "folder", in: .root)

        let full = try await provider.listAll(.root)
        let fullBody = try #require(recorder.takeLast())
        #expect(fullBody.contains("getcontenttype"))
        let lean = try await provider.listAll(.root, fields: [])
        let leanBody = try #require(recorder.takeLast())
        #expect(!leanBody.contains("getcontenttype"))
        #expect(leanBody.contains("getetag") && leanBody.contains("getcontentlength"))

        #expect(full.map(\.name) == ["folder", "note.txt", "page.html"])
        if serverName == "apache" {  // sabre's file backend keeps no content type
            #expect(full.first { $0.name == "note.txt" }?.mimeType?.hasPrefix("text/plain") == true)
        }
        #expect(lean.allSatisfy { $0.mimeType == nil })
        // Apache's etag of a file changed within the last second is weak and turns strong
        // later (same tag): compare the tags without the W/ mark.
        func essentials(_ items: [Item]) -> [String] {
            items.map {
                let tag = $0.etag.map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 } ?? "-"
                return "\($0.path) \($0.kind) \($0.size.map(String.init) ?? "-") \(tag) \($0.modified?.timeIntervalSince1970 ?? -1)"
            }
        }
        #expect(essentials(lean) == essentials(full))

        // Pages of a lean listing stay lean.
        let paged = try await provider.listAll(.root, pageSize: 2, fields: [])
        #expect(paged.map(\.name) == full.map(\.name))
        #expect(paged.allSatisfy { $0.mimeType == nil })
        #expect(try #require(recorder.takeLast()).contains("getcontenttype") == false)
    }
}
