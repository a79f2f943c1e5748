import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing
import ProviderKit
import HTTPProviderKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private let fileURL = url("http://127.0.0.1:8080/dav/file.bin")
private let content: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }

/// One answer of a `CuttingTransport`: a status, headers, body pieces, and how the body ends.
private struct Answer: Sendable {
    var status: Int
    var headers: [(String, String)]
    var pieces: [[UInt8]]
    /// Thrown after the pieces (a dropped connection); `nil` ends the body cleanly.
    var endsWith: ProviderError?

    /// The whole content from `start`, cut after `count` bytes (or not), with the given headers.
    static func body(
        _ status: Int, from start: Int = 0, count: Int? = nil, headers: [(String, String)], drop: Bool = false
    ) -> Answer {
        let end = count.map { min(content.count, start + $0) } ?? content.count
        let slice = Array(content[start..<end])
        let pieces = stride(from: 0, to: slice.count, by: 90).map { Array(slice[$0..<min($0 + 90, slice.count)]) }
        return Answer(status: status, headers: headers, pieces: pieces, endsWith: drop ? ProviderError(.network, "connection reset") : nil)
    }
}

/// A transport that answers each request with the next `Answer`, and records the requests.
private final class CuttingTransport: HTTPTransport {
    private let state: NIOLockedValueBox<(answers: [Answer], requests: [TransportRequest])>

    init(_ answers: [Answer]) { state = NIOLockedValueBox((answers, [])) }

    var requests: [TransportRequest] { state.withLockedValue { $0.requests } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let answer: Answer? = state.withLockedValue { state in
            state.requests.append(request)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        guard let answer else { return TransportResponse(status: 599, url: request.url) }
        var headers = HTTPHeaders()
        for (name, value) in answer.headers { headers.add(name: name, value: value) }
        let queue = NIOLockedValueBox((answer.pieces.map { ByteBuffer(bytes: $0) }, answer.endsWith))
        return TransportResponse(
            status: answer.status, headers: headers, url: request.url,
            body: HTTPResponseBody(next: {
                let (piece, failure): (ByteBuffer?, ProviderError?) = queue.withLockedValue { state in
                    if !state.0.isEmpty { return (state.0.removeFirst(), nil) }
                    defer { state.1 = nil }
                    return (nil, state.1)
                }
                if let failure { throw failure }
                return piece
            }))
    }
}

@Sendable private func itemFor(_ response: TransportResponse) -> Item {
    Item(path: "/file.bin", kind: .file, etag: response.etag)
}

@Sendable private func errorFor(_ response: TransportResponse, _ body: ByteBuffer) -> ProviderError {
    ProviderError.http(status: response.status, request: nil, message: String(buffer: body))
}

private func download(
    _ transport: CuttingTransport, into sink: any DownloadSink, options: DownloadOptions = DownloadOptions(),
    expected: Item? = nil, lookUpSize: (@Sendable () async -> Int64?)? = nil
) async throws -> DownloadResult {
    let executor = RequestExecutor(transport: transport, retry: fastRetry, logger: quietLogger)
    return try await HTTPDownloader(executor: executor).download(
        TransportRequest(method: .GET, url: fileURL), to: sink, options: options, expected: expected,
        errorFor: errorFor, itemFor: itemFor, lookUpSize: lookUpSize)
}

private let sized = Item(path: "/file.bin", kind: .file, size: 1000)
private let ranged: [(String, String)] = [("ETag", "\"v1\""), ("Accept-Ranges", "bytes")]

@Suite("HTTPDownloader size checks")
struct DownloadSizeCheckTests {
    @Test("a short body without a length is a network error when the provider knows the size, and leaves no file")
    func shortWithoutLength() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = CuttingTransport([.body(200, count: 600, headers: [])])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: FileSink(url: dir.file("out.bin")), expected: sized)
        }
        #expect(error?.code == .network)
        #expect(error?.message == "the body ended after 600 of 1000 bytes")
        #expect(try dir.contents() == [])
    }

    @Test("the provider's size does not bind an answer whose etag says the file changed since; the same etag, weak or strong, does")
    func changedSinceListing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let listed = Item(path: "/file.bin", kind: .file, size: 400, etag: "\"v0\"")
        let transport = CuttingTransport([.body(200, headers: [("ETag", "\"v1\""), ("Content-Length", "1000")])])
        _ = try await download(transport, into: FileSink(url: dir.file("new.bin")), expected: listed)
        #expect(try Array(Data(contentsOf: dir.file("new.bin"))) == content)
        let same = Item(path: "/file.bin", kind: .file, size: 400, etag: "W/\"v1\"")
        let lying = CuttingTransport([.body(200, headers: [("ETag", "\"v1\""), ("Content-Length", "1000")])])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(lying, into: FileSink(url: dir.file("same.bin")), expected: same)
        }
        #expect(error?.code == .integrity)
        #expect(!FileManager.default.fileExists(atPath: dir.file("same.bin").path))
    }

    @Test("a short body without a length is caught by the size looked up after it, once")
    func shortLookedUp() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let asked = Counter()
        let transport = CuttingTransport([.body(200, count: 600, headers: [])])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: FileSink(url: dir.file("out.bin")), lookUpSize: {
                asked.increment()
                return 1000
            })
        }
        #expect(error?.code == .network)
        #expect(asked.value == 1)
        #expect(try dir.contents() == [])
    }

    @Test("a complete body without a length passes when it matches the known size")
    func completeWithoutLength() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let asked = Counter()
        let transport = CuttingTransport([.body(200, headers: []), .body(200, headers: [])])
        _ = try await download(transport, into: FileSink(url: dir.file("a.bin")), expected: sized, lookUpSize: {
            asked.increment()
            return 1000
        })
        #expect(asked.value == 0, "the size was known: no lookup")
        #expect(try Array(Data(contentsOf: dir.file("a.bin"))) == content)
        let result = try await download(transport, into: FileSink(url: dir.file("b.bin")), lookUpSize: {
            asked.increment()
            return 1000
        })
        #expect(asked.value == 1)
        #expect(result.item.size == 1000)
        #expect(try Array(Data(contentsOf: dir.file("b.bin"))) == content)
    }

    @Test("a body longer than the size the provider reported is an integrity error, and leaves no file")
    func longerThanReported() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = CuttingTransport([.body(200, headers: [])])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(
                transport, into: FileSink(url: dir.file("out.bin")), expected: Item(path: "/file.bin", kind: .file, size: 700))
        }
        #expect(error?.code == .integrity)
        #expect(error?.message == "the server sent more than the 700 bytes it declared")
        #expect(try dir.contents() == [])
    }

    @Test("a body longer than its Content-Length is an integrity error")
    func longerThanContentLength() async throws {
        let transport = CuttingTransport([.body(200, headers: [("Content-Length", "900")])])
        let error = await #expect(throws: ProviderError.self) { _ = try await download(transport, into: MemorySink()) }
        #expect(error?.code == .integrity)
    }

    @Test("a body shorter than the reported size fails even when its Content-Length agrees with it")
    func lengthDisagreesWithReportedSize() async throws {
        let transport = CuttingTransport([.body(200, count: 800, headers: [("Content-Length", "800")])])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: MemorySink(), expected: sized)
        }
        #expect(error?.code == .network)
    }

    @Test("a 206 never asked for is an invalid response, and nothing is written")
    func unasked206() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = CuttingTransport([
            .body(206, from: 500, headers: [("Content-Range", "bytes 500-999/1000"), ("Content-Length", "500")])
        ])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: FileSink(url: dir.file("out.bin")))
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message == "206 for a range that was not asked")
        #expect(try dir.contents() == [])
    }

    @Test("a 206 whose Content-Length disagrees with its Content-Range is an invalid response")
    func rangeLengthMismatch() async throws {
        let transport = CuttingTransport([
            .body(206, from: 10, count: 10, headers: [("Content-Range", "bytes 10-19/1000"), ("Content-Length", "12")])
        ])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: MemorySink(), options: DownloadOptions(range: .bytes(10...19)))
        }
        #expect(error?.code == .invalidResponse)
    }

    @Test("a 206 body shorter than its Content-Range extent is a network error")
    func rangeShortBody() async throws {
        let transport = CuttingTransport([.body(206, from: 10, count: 5, headers: [("Content-Range", "bytes 10-19/1000")])])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: MemorySink(), options: DownloadOptions(range: .bytes(10...19)))
        }
        #expect(error?.code == .network)
    }
}

@Suite("HTTPDownloader automatic resume")
struct DownloadAutoResumeTests {
    @Test("a body cut by a dropped connection is resumed from the byte reached, with If-Range, into the file")
    func resumedAfterDrop() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = CuttingTransport([
            .body(200, count: 450, headers: ranged + [("Content-Length", "1000")], drop: true),
            .body(206, from: 450, headers: ranged + [("Content-Range", "bytes 450-999/1000"), ("Content-Length", "550")]),
        ])
        let progress = Collector<TransferProgress>()
        let result = try await download(
            transport, into: FileSink(url: dir.file("out.bin")), options: DownloadOptions(progress: { progress.append($0) }))
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].headers.first(name: "Range") == nil)
        #expect(transport.requests[1].headers.first(name: "Range") == "bytes=450-")
        #expect(transport.requests[1].headers.first(name: "If-Range") == "\"v1\"")
        #expect(try Array(Data(contentsOf: dir.file("out.bin"))) == content)
        #expect(try dir.contents() == ["out.bin"])
        #expect(result.offset == 0)
        #expect(result.bytesReceived == 1000)
        let values = progress.values
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.completed <= $1.completed }, "progress never goes back")
        #expect(values.last == TransferProgress(completed: 1000, expected: 1000))
    }

    @Test("a length-less body without etag that ends short of the known size is resumed under its Last-Modified date, and the digest still checks the whole")
    func resumedAfterShortEnd() async throws {
        let md5 = Digester.hex(.md5, of: content) ?? ""
        let modified = "Mon, 01 Jun 2020 10:00:00 GMT"
        let transport = CuttingTransport([
            .body(200, count: 300, headers: [("Accept-Ranges", "bytes"), ("Last-Modified", modified), ("Date", "Sat, 28 Nov 2026 00:00:00 GMT")]),
            .body(206, from: 300, count: 200, headers: [("Content-Range", "bytes 300-999/1000")]),
            .body(206, from: 500, headers: [("Content-Range", "bytes 500-999/1000")]),
        ])
        let sink = MemorySink()
        let expected = Item(path: "/file.bin", kind: .file, size: 1000, digests: [.md5: md5])
        _ = try await download(transport, into: sink, expected: expected)
        #expect(transport.requests.count == 3)
        #expect(transport.requests[1].headers.first(name: "Range") == "bytes=300-")
        #expect(transport.requests[1].headers.first(name: "If-Range") == modified, "no etag: the strong date is the validator, never none")
        #expect(transport.requests[2].headers.first(name: "If-Range") == modified)
        #expect(transport.requests[2].headers.first(name: "Range") == "bytes=500-")
        #expect(await sink.bytes == content)
    }

    @Test("a resumed download whose content changed in between fails, and leaves no file")
    func validatorChanged() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = CuttingTransport([
            .body(200, count: 450, headers: ranged + [("Content-Length", "1000")], drop: true),
            .body(200, headers: [("ETag", "\"v2\""), ("Accept-Ranges", "bytes"), ("Content-Length", "1000")]),
        ])
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: FileSink(url: dir.file("out.bin")))
        }
        #expect(transport.requests.count == 2)
        #expect(transport.requests[1].headers.first(name: "If-Range") == "\"v1\"")
        #expect(error?.code == .conflict)
        #expect(try dir.contents() == [])
    }

    @Test("a continuation that starts elsewhere than asked is refused")
    func continuationElsewhere() async throws {
        let transport = CuttingTransport([
            .body(200, count: 450, headers: ranged + [("Content-Length", "1000")], drop: true),
            .body(206, from: 400, headers: ranged + [("Content-Range", "bytes 400-999/1000")]),
        ])
        let error = await #expect(throws: ProviderError.self) { _ = try await download(transport, into: MemorySink()) }
        #expect(error?.code == .invalidResponse)
    }

    @Test("no resume without a sign of range support: the cut stands, one request")
    func noRangeSupport() async throws {
        let transport = CuttingTransport([.body(200, count: 450, headers: [("ETag", "\"v1\""), ("Content-Length", "1000")], drop: true)])
        let error = await #expect(throws: ProviderError.self) { _ = try await download(transport, into: MemorySink()) }
        #expect(error?.code == .network)
        #expect(transport.requests.count == 1)
    }

    @Test("no resume without a strong validator or a known size")
    func noValidatorNoSize() async throws {
        let transport = CuttingTransport([.body(200, count: 450, headers: [("ETag", "W/\"weak\""), ("Accept-Ranges", "bytes")], drop: true)])
        let error = await #expect(throws: ProviderError.self) { _ = try await download(transport, into: MemorySink()) }
        #expect(error?.code == .network)
        #expect(transport.requests.count == 1)
    }

    @Test("a known size alone is no validator: a cut body without etag or strong date is not continued (a rewrite at the same size would be spliced)")
    func sizeAloneNotContinued() async throws {
        let transport = CuttingTransport([
            .body(200, count: 450, headers: [("Accept-Ranges", "bytes"), ("Content-Length", "1000")], drop: true),
            .body(206, from: 450, headers: [("Accept-Ranges", "bytes"), ("Content-Range", "bytes 450-999/1000"), ("Content-Length", "550")]),
        ])
        let error = await #expect(throws: ProviderError.self) { _ = try await download(transport, into: MemorySink()) }
        #expect(error?.code == .network)
        #expect(transport.requests.count == 1, "continued blind with Range and no If-Range")
    }

    @Test("resumes are bounded by maxResumes", arguments: [0, 1, 3])
    func bounded(_ maxResumes: Int) async throws {
        var answers: [Answer] = [.body(200, count: 100, headers: ranged + [("Content-Length", "1000")], drop: true)]
        for step in 1...5 {
            answers.append(.body(206, from: step * 100, count: 100, headers: ranged + [("Content-Range", "bytes \(step * 100)-999/1000")], drop: true))
        }
        let transport = CuttingTransport(answers)
        let error = await #expect(throws: ProviderError.self) {
            _ = try await download(transport, into: MemorySink(), options: DownloadOptions(maxResumes: maxResumes))
        }
        #expect(error?.code == .network)
        #expect(transport.requests.count == 1 + maxResumes)
    }

    @Test("a cut download into a pipe goes on where the stream stopped")
    func intoPipe() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let sink = DescriptorSink(descriptor: fds[1], closesWhenDone: true, label: "a pipe")
        let transport = CuttingTransport([
            .body(200, count: 640, headers: ranged + [("Content-Length", "1000")], drop: true),
            .body(206, from: 640, headers: ranged + [("Content-Range", "bytes 640-999/1000")]),
        ])
        _ = try await download(transport, into: sink)
        var bytes = [UInt8](repeating: 0, count: 4096)
        var got: [UInt8] = []
        while true {
            let count = read(fds[0], &bytes, bytes.count)
            if count <= 0 { break }
            got += bytes[..<count]
        }
        #expect(got == content)
    }

    @Test("a cancelled download is not resumed")
    func cancelledNotResumed() async throws {
        let transport = CuttingTransport([
            .body(200, count: 450, headers: ranged + [("Content-Length", "1000")]),
            .body(206, from: 450, headers: ranged + [("Content-Range", "bytes 450-999/1000")]),
        ])
        let task = Task {
            try await download(transport, into: MemorySink(), options: DownloadOptions(progress: { p in
                if p.completed > 0 { withUnsafeCurrentTask { $0?.cancel() } }
            }))
        }
        let error = await #expect(throws: ProviderError.self) { _ = try await task.value }
        #expect(error?.code == .cancelled)
        #expect(transport.requests.count == 1)
    }
}
