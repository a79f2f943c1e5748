import Foundation
import NIOCore
import NuxeoProvider
import NuxeoTestServer
import ProviderAPI
import ProviderKit
import Testing

/// The adapter against the loopback server's fault hooks.
@Suite("Nuxeo faults on the loopback server")
struct NuxeoFaultTests {
    @Test("a revoked token is acquired again transparently, once")
    func tokenReacquired() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.provider(options: ["auth": "token"])
        _ = try await provider.upload(DataSource(string: "one"), to: .root, name: "a.txt", options: UploadOptions())
        let first = try #require(await provider.tokenAuthenticator?.acquisitionCount)
        #expect(first == 1)
        nuxeo.server.faults.revokeAllTokens()
        nuxeo.server.resetRequests()
        let item = try await provider.item(at: "/a.txt")
        #expect(item.size == 3)
        #expect(await provider.tokenAuthenticator?.acquisitionCount == 2)
        let requests = nuxeo.server.requests()
        #expect(requests.contains { $0.path.hasSuffix("/authentication/token") })
        // Requests to the REST API carry the token, never the password.
        #expect(requests.filter { $0.path.contains("/api/v1/") }.allSatisfy { $0.header("Authorization") == nil && $0.header("X-Authentication-Token") != nil })
        #expect(requests.allSatisfy { $0.header("X-No-Basic-Header") == "true" || $0.path.hasSuffix("/authentication/token") })
    }

    @Test("a wrong password is unauthorized at once, without a retry loop")
    func wrongPassword() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        for auth in ["basic", "token"] {
            nuxeo.server.resetRequests()
            let error = await #expect(throws: ProviderError.self) {
                _ = try await nuxeo.provider(credentials: .basic(username: LoopbackNuxeo.user, password: "wrong"), options: ["auth": auth])
            }
            #expect(error?.code == .unauthorized)
            #expect(nuxeo.server.requests().count <= 3, "\(auth): \(nuxeo.server.requests().count) requests")
        }
    }

    @Test("503 with Retry-After is retried")
    func retryAfter503() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        _ = try await provider.upload(DataSource(string: "hello"), to: .root, name: "r.txt", options: UploadOptions())
        nuxeo.server.faults.failNext(status: 503, retryAfter: 1, count: 2) { method, _ in method == "GET" }
        let started = ContinuousClock.now
        let item = try await provider.item(at: "/r.txt")
        #expect(item.size == 5)
        #expect(ContinuousClock.now - started >= .seconds(1))
    }

    @Test("a 503 that outlasts the retries is a server error with Retry-After")
    func persistent503() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(retry: .none)
        nuxeo.server.faults.failNext(status: 503, retryAfter: 7, count: 1) { _, _ in true }
        let error = await #expect(throws: ProviderError.self) { _ = try await provider.list(.root, page: .first) }
        #expect(error?.httpStatus == 503)
        #expect(error?.retryAfter == .seconds(7))
    }

    @Test("a lost chunk is sent again, and only that chunk")
    func chunkResumed() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(options: ["chunkSize": "4096"])
        let bytes = patternBytes(4096 * 5 + 100)
        nuxeo.server.faults.loseChunk(index: 2)
        nuxeo.server.resetRequests()
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "big.bin", options: UploadOptions())
        #expect(item.size == Int64(bytes.count))
        let chunks = nuxeo.server.requests().filter { $0.method == "POST" && $0.header("X-Upload-Type") == "chunked" }
        #expect(chunks.count == 7, "6 chunks plus the lost one again, not \(chunks.count)")
        #expect(chunks.filter { $0.header("X-Upload-Chunk-Index") == "2" }.count == 2)
        let status = nuxeo.server.requests().filter { $0.method == "GET" && $0.path.contains("/upload/") }
        #expect(!status.isEmpty, "the uploader asked which chunks the server has")
        let sink = MemorySink()
        _ = try await provider.download(item.path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes == bytes)
    }

    @Test("an upload cut off mid-way resumes in a later call from the chunks the server kept")
    func uploadResumedAcrossCalls() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(options: ["chunkSize": "4096"])
        let bytes = patternBytes(4096 * 6 + 10)
        let batch = try await provider.client.createBatch()
        await #expect(throws: ProviderError.self) {
            _ = try await provider.uploadBatch(BrokenSource(bytes: bytes, failAfter: 4096 * 3 + 100), into: batch, fileName: "big.bin")
        }
        nuxeo.server.resetRequests()
        _ = try await provider.uploadBatch(DataSource(bytes: bytes), into: batch, fileName: "big.bin")
        let chunks = nuxeo.server.requests().filter { $0.header("X-Upload-Type") == "chunked" }.compactMap { $0.header("X-Upload-Chunk-Index") }
        #expect(chunks == ["3", "4", "5", "6"], "resent \(chunks)")
        let item = try await provider.attach(batch: batch, named: "big.bin", in: .root)
        #expect(item.size == Int64(bytes.count))
        let sink = MemorySink()
        _ = try await provider.download(item.path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes == bytes)
        await #expect(throws: ProviderError.self) { _ = try await provider.attach(batch: batch, named: "big.bin", in: .root) }
    }

    @Test("a source of unknown length (a pipe) is spooled, then sent in chunks")
    func unknownLength() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(options: ["chunkSize": "4096"])
        let bytes = patternBytes(10_000)
        let pieces = stride(from: 0, to: bytes.count, by: 3000).map { ByteBuffer(bytes: bytes[$0..<min($0 + 3000, bytes.count)]) }
        let stream = AsyncStream<ByteBuffer> { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
        let item = try await provider.upload(AsyncSequenceSource(stream), to: .root, name: "piped.bin", options: UploadOptions())
        #expect(item.size == Int64(bytes.count))
        let chunks = nuxeo.server.requests().filter { $0.header("X-Upload-Type") == "chunked" }
        #expect(chunks.count == 3)
        #expect(chunks.allSatisfy { $0.header("X-File-Size") == "10000" })
        let sink = MemorySink()
        _ = try await provider.download(item.path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes == bytes)
    }

    @Test("a blob download cut mid-way resumes where it stopped, and the digest is checked")
    func downloadResumed() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(retry: .none)
        let bytes = patternBytes(300_000)
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "cut.bin", options: UploadOptions())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuxeo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("cut.bin")
        nuxeo.server.faults.dropBlobConnection(afterBytes: 100_000)
        await #expect(throws: ProviderError.self) {
            _ = try await provider.download(item.path, to: FileSink(url: target, resumable: true), options: DownloadOptions(resume: true, maxResumes: 0))
        }
        #expect(!FileManager.default.fileExists(atPath: target.path), "no partial file under the final name")
        nuxeo.server.resetRequests()
        let result = try await provider.download(item.path, to: FileSink(url: target, resumable: true), options: DownloadOptions(resume: true))
        #expect(result.offset > 0, "the second download resumed at \(result.offset)")
        #expect(try Data(contentsOf: target) == Data(bytes))
        #expect(nuxeo.server.requests().contains { $0.header("Range")?.hasPrefix("bytes=") == true })
    }

    @Test("a download cut in the middle is continued automatically within the same call")
    func automaticResume() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(retry: .none)
        let bytes = patternBytes(300_000, seed: 3)
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "auto.bin", options: UploadOptions())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuxeo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("auto.bin")
        nuxeo.server.faults.dropBlobConnection(afterBytes: 100_000)
        nuxeo.server.resetRequests()
        let result = try await provider.download(item.path, to: FileSink(url: target), options: DownloadOptions())
        #expect(result.offset == 0)
        #expect(try Data(contentsOf: target) == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["auto.bin"])
        #expect(nuxeo.server.requests().contains { $0.header("Range")?.hasPrefix("bytes=") == true })
    }

    @Test("a partial download of older content is not continued: the file starts over")
    func resumeAfterContentChanged() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch(retry: .none)
        let old = patternBytes(200_000, seed: 1)
        let new = patternBytes(250_000, seed: 2)
        let item = try await provider.upload(DataSource(bytes: old), to: .root, name: "v.bin", options: UploadOptions())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuxeo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("v.bin")
        nuxeo.server.faults.dropBlobConnection(afterBytes: 50_000)
        await #expect(throws: ProviderError.self) {
            _ = try await provider.download(item.path, to: FileSink(url: target, resumable: true), options: DownloadOptions(resume: true, maxResumes: 0))
        }
        _ = try await provider.upload(DataSource(bytes: new), to: .root, name: "v.bin", options: UploadOptions(conflict: .overwrite))
        let result = try await provider.download(item.path, to: FileSink(url: target, resumable: true), options: DownloadOptions(resume: true))
        #expect(result.offset == 0)
        #expect(try Data(contentsOf: target) == Data(new))
    }

    @Test("a token, bearer or OAuth2 login given up front is sent as it is; a revoked one is unauthorized without a loop")
    func givenTokens() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let acquirer = try await nuxeo.provider(options: ["auth": "token", "application": "StrataTests", "deviceId": "device-1"])
        let token = try #require(try await acquirer.tokenAuthenticator?.currentToken())
        let acquisition = try #require(nuxeo.server.requests().first { $0.path.hasSuffix("/authentication/token") })
        let query = acquisition.query ?? ""
        #expect(query.contains("applicationName=StrataTests") && query.contains("deviceId=device-1") && query.contains("permission=rw"))
        let oauth2 = Credentials.oauth2(
            accessToken: token, refreshToken: nil, expiresAt: nil, tokenURL: nuxeo.server.baseURL.appendingPathComponent("oauth2/token"),
            clientID: "strata")
        for credentials in [Credentials.token(token), .bearer(accessToken: token, refreshToken: nil), oauth2] {
            nuxeo.server.resetRequests()
            let provider = try await nuxeo.provider(credentials: credentials)
            #expect(try await provider.item(at: .root).kind == .folder)
            let sent = nuxeo.server.requests()
            #expect(sent.allSatisfy { ($0.header("X-Authentication-Token") ?? $0.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "")) == token })
        }
        try await acquirer.client.revokeToken(acquirer.settings.tokenRequest)
        nuxeo.server.resetRequests()
        let error = await #expect(throws: ProviderError.self) { _ = try await nuxeo.provider(credentials: .token(token)) }
        #expect(error?.code == .unauthorized)
        #expect(nuxeo.server.requests().count == 1)
    }

    @Test("a stale change token makes a conditional upload preconditionFailed")
    func staleChangeToken() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.provider()
        let first = try await provider.upload(DataSource(string: "v1"), to: .root, name: "doc.txt", options: UploadOptions())
        let etag = try #require(first.etag)
        nuxeo.server.touch(path: LoopbackNuxeo.workspace + "/doc.txt")
        let error = await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(
                DataSource(string: "v2"), to: .root, name: "doc.txt", options: UploadOptions(conflict: .overwrite, ifMatch: etag))
        }
        #expect(error?.code == .preconditionFailed)
        let sink = MemorySink()
        _ = try await provider.download(first.path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes == Array("v1".utf8))
    }

    @Test("a blob redirected to another host is fetched without credentials")
    func crossHostRedirect() async throws {
        let nuxeo = try await LoopbackNuxeo.start()
        defer { Task { await nuxeo.stop() } }
        let provider = try await nuxeo.scratch()
        let bytes = patternBytes(5000)
        let item = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "s3.bin", options: UploadOptions())
        nuxeo.server.faults.redirectBlobs(to: "localhost")
        nuxeo.server.resetRequests()
        let sink = MemorySink()
        _ = try await provider.download(item.path, to: sink, options: DownloadOptions())
        #expect(await sink.bytes == bytes)
        let s3 = nuxeo.server.requests().filter { $0.path.contains("/s3/") }
        #expect(s3.count == 1)
        #expect(s3.allSatisfy { !$0.carriedCredentials })
    }
}

/// A source whose stream fails after `failAfter` bytes, as a crash or a lost disk would.
struct BrokenSource: UploadSource {
    let bytes: [UInt8]
    let failAfter: Int
    var length: Int64? { Int64(bytes.count) }
    var isReplayable: Bool { true }

    func makeStream() throws -> UploadStream {
        let pieces = stride(from: 0, to: failAfter, by: 1000).map { ByteBuffer(bytes: bytes[$0..<min($0 + 1000, failAfter)]) }
        let state = PieceQueue(pieces)
        return UploadStream { try await state.next() }
    }
}

actor PieceQueue {
    var pieces: [ByteBuffer]
    init(_ pieces: [ByteBuffer]) { self.pieces = pieces }
    func next() throws -> ByteBuffer? {
        guard !pieces.isEmpty else { throw ProviderError(.network, "the source broke") }
        return pieces.removeFirst()
    }
}
