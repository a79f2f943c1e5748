import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import NuxeoProvider
import ProviderAPI
import PydioProvider
import Testing
import TransferEngine

/// The requests a copy of many small files costs per file on the loopback Nuxeo and Pydio
/// servers, from and to each: what the protocol needs and nothing more (issue 34: round trips are
/// the budget over a real network).
@Suite("requests per file of a copy to and from Nuxeo and Pydio")
struct AdapterRequestCountTests {
    static let files = 12

    /// A local tree of ``files`` small files in one folder.
    static func smallFiles(_ text: String = "") throws -> LocalTree {
        let local = try LocalTree()
        for index in 0..<files { try local.write(String(format: "f%02d.txt", index), "file \(index)\(text)") }
        return local
    }

    @Test("Nuxeo: a file read in a copy is one request (its blob, by the uid the listing gave); a file written is its batch upload and the document's creation")
    func nuxeo() async throws {
        let (provider, fresh, log, stop) = try await Self.nuxeo()
        defer { Task { await stop() } }
        let manager = TransferManager(options: .testing())
        let local = try Self.smallFiles()
        let remote = TransferEndpoint(provider, at: "/tree")

        log.reset()
        let up = try await manager.copy(from: local.endpoint, to: remote)
        #expect(up.succeeded && up.filesCopied == Self.files, "\(up.failures.map(\.message))")
        let written = log.perFile(Self.files)
        // One search for the name (Nuxeo creates nothing exclusively), the batch and its upload, the document.
        #expect(written["POST /api/v1/upload"] == 1, "\(written)")
        #expect(written["POST /api/v1/upload/{batch}/0"] == 1, "\(written)")
        #expect(written["POST /api/v1/id/{uid}"] == 1, "\(written)")
        #expect(written["GET /api/v1/search/execute"] == 1, "\(written)")
        // The folder is checked in that search, not fetched again for every file.
        #expect(written["GET /api/v1/id/{uid}"] == nil, "\(written)")
        #expect(log.perFileTotal(Self.files) == 4, "\(log.histogram())")

        let back = try LocalTree()
        let reader = try await fresh()
        log.reset()
        let down = try await manager.copy(from: TransferEndpoint(reader, at: "/tree"), to: back.endpoint)
        #expect(down.succeeded && down.filesCopied == Self.files, "\(down.failures.map(\.message))")
        let read = log.perFile(Self.files)
        #expect(read["GET /api/v1/id/{uid}/@blob/file:content"] == 1, "\(read)")
        // No document fetched again by uid or by path before its blob.
        #expect(read["GET /api/v1/id/{uid}"] == nil, "\(read)")
        #expect(log.perFileTotal(Self.files) == 1, "\(log.histogram())")
        for index in 0..<Self.files {
            #expect(try back.read(String(format: "f%02d.txt", index)) == Data("file \(index)".utf8))
        }
    }

    @Test("Pydio: a file read in a copy is one download; a file written, new or over an older one, is one look at its name and one upload")
    func pydio() async throws {
        let (provider, log, stop) = try await Self.pydio()
        defer { Task { await stop() } }
        let manager = TransferManager(options: .testing())
        let local = try Self.smallFiles()
        let remote = TransferEndpoint(provider, at: "/tree")

        log.reset()
        let up = try await manager.copy(from: local.endpoint, to: remote)
        #expect(up.succeeded && up.filesCopied == Self.files, "\(up.failures.map(\.message))")
        let created = log.perFile(Self.files)
        // The name is looked at (nothing is written exclusively), then the file is sent; the folder is not listed first.
        #expect(created["upload"] == 1 && created["ls"] == 1, "\(created)")
        #expect(log.perFileTotal(Self.files) == 2, "\(log.histogram())")

        // Every file again, longer: each is copied over the older one (`differs`).
        let newer = try Self.smallFiles(" changed")
        log.reset()
        let over = try await manager.copy(from: newer.endpoint, to: remote)
        #expect(over.succeeded && over.filesCopied == Self.files, "\(over.failures.map(\.message))")
        let replaced = log.perFile(Self.files)
        // The look at the name stays: Pydio's upload would put the file over a folder of that name.
        #expect(replaced["upload"] == 1 && replaced["ls"] == 1, "\(replaced)")
        #expect(log.perFileTotal(Self.files) == 2, "\(log.histogram())")

        let back = try LocalTree()
        log.reset()
        let down = try await manager.copy(from: remote, to: back.endpoint)
        #expect(down.succeeded && down.filesCopied == Self.files, "\(down.failures.map(\.message))")
        let read = log.perFile(Self.files)
        // The file is not looked at before its download: the listing said what it is.
        #expect(read["download"] == 1 && read["ls"] == nil, "\(read)")
        #expect(log.perFileTotal(Self.files) == 1, "\(log.histogram())")
        for index in 0..<Self.files {
            #expect(try back.read(String(format: "f%02d.txt", index)) == Data("file \(index) changed".utf8))
        }
    }

    // MARK: Servers

    /// A loopback Nuxeo server, a provider rooted at a fresh folder of its workspace, and how to
    /// make another one on that folder (which has learnt nothing from the first).
    static func nuxeo() async throws -> (NuxeoProvider, @Sendable () async throws -> NuxeoProvider, AdapterRequestLog, @Sendable () async -> Void) {
        let log = AdapterRequestLog(AsyncHTTPClientTransport.shared)
        let folder = try await LoopbackFolder.nuxeo(through: log)
        let make: @Sendable () async throws -> NuxeoProvider = { try await NuxeoProvider.connect(folder.configuration(log)) }
        do {
            return (try await make(), make, log, folder.stop)
        } catch {
            await folder.stop()
            throw error
        }
    }

    static func pydio() async throws -> (PydioProvider, AdapterRequestLog, @Sendable () async -> Void) {
        let log = AdapterRequestLog(AsyncHTTPClientTransport.shared)
        let folder = try await LoopbackFolder.pydio(through: log)
        do {
            return (try await PydioProvider.connect(folder.configuration(log)), log, folder.stop)
        } catch {
            await folder.stop()
            throw error
        }
    }
}

/// Records every request sent through it by kind: the method and the path with uids and batch
/// ids folded (`GET /api/v1/id/{uid}/@blob/file:content`), or Pydio's `get_action`.
final class AdapterRequestLog: HTTPTransport {
    private let base: any HTTPTransport
    private let kinds = NIOLockedValueBox<[String]>([])

    init(_ base: any HTTPTransport) { self.base = base }

    func reset() { kinds.withLockedValue { $0.removeAll() } }

    func histogram() -> [String: Int] {
        kinds.withLockedValue { kinds in kinds.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
    }

    /// The kinds sent at least once per file (`files` of them), each with how many per file (rounded down).
    func perFile(_ files: Int) -> [String: Int] {
        histogram().filter { $0.value >= files }.mapValues { $0 / files }
    }

    /// The requests of the kinds sent at least once per file, per file (rounded down).
    func perFileTotal(_ files: Int) -> Int {
        histogram().values.filter { $0 >= files }.reduce(0, +) / files
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let kind = Self.kind(request)
        kinds.withLockedValue { $0.append(kind) }
        return try await base.send(request)
    }

    static func kind(_ request: TransportRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        if let action = components?.queryItems?.first(where: { $0.name == "get_action" })?.value { return action }
        let path = request.url.path
        guard let api = path.range(of: "/api/v1/") else { return request.method.rawValue + " " + path }
        var segments = path[api.lowerBound...].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in segments.indices.dropFirst() {
            let before = segments[index - 1]
            if before == "id" { segments[index] = "{uid}" }
            if before == "upload", segments[index] != "new" { segments[index] = "{batch}" }
            if before == "path" { segments.removeSubrange(index...); segments.append("{path}"); break }
        }
        return request.method.rawValue + " " + segments.joined(separator: "/")
    }
}
