import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing
import ProviderKit
import HTTPProviderKit

private let fileURL = url("http://127.0.0.1:8080/dav/file.bin")
private let content: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

/// Splits `bytes` into pieces of `size` bytes.
private func pieces(_ bytes: ArraySlice<UInt8>, size: Int = 97) -> [[UInt8]] {
    stride(from: bytes.startIndex, to: bytes.endIndex, by: size).map { Array(bytes[$0..<min($0 + size, bytes.endIndex)]) }
}

/// The item a test adapter makes of a response: the etag, and an md5 from `X-Test-MD5`.
@Sendable private func itemFor(_ response: TransportResponse) -> Item {
    var digests: [DigestAlgorithm: String] = [:]
    if let md5 = response.headers.first(name: "x-test-md5") { digests[.md5] = md5 }
    return Item(path: "/file.bin", kind: .file, etag: response.etag, digests: digests)
}

@Sendable private func errorFor(_ response: TransportResponse, _ body: ByteBuffer) -> ProviderError {
    ProviderError.http(status: response.status, request: nil, message: String(buffer: body))
}

private func downloader(_ transport: ScriptedTransport) -> HTTPDownloader {
    HTTPDownloader(executor: RequestExecutor(transport: transport, retry: fastRetry, logger: quietLogger))
}

private func md5(_ bytes: [UInt8]) -> String { Digester.hex(.md5, of: bytes) ?? "" }

private func ok200(_ body: [UInt8], extra: [(String, String)] = [], declaredLength: Int? = nil) -> ScriptedStep {
    .respond(status: 200, headers: [("Content-Length", "\(declaredLength ?? body.count)")] + extra, pieces: pieces(body[...]))
}

@Suite("HTTPDownloader")
struct HTTPDownloaderTests {
    @Test("a full 200 download into a MemorySink")
    func fullIntoMemory() async throws {
        let transport = ScriptedTransport([ok200(content, extra: [("ETag", "\"v1\"")])])
        let sink = MemorySink()
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(await sink.bytes == content)
        #expect(await sink.isFinished)
        #expect(result.bytesReceived == 1000)
        #expect(result.offset == 0)
        #expect(!result.notModified)
        #expect(result.item.etag == "\"v1\"")
        #expect(result.item.size == 1000)
        #expect(transport.requests[0].header("Range") == nil)
    }

    @Test("a full 200 download into a FileSink leaves only the final file")
    func fullIntoFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = ScriptedTransport([ok200(content)])
        let sink = FileSink(url: dir.file("out.bin"))
        _ = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(try Array(Data(contentsOf: dir.file("out.bin"))) == content)
        #expect(try dir.contents() == ["out.bin"])
    }

    @Test("a body shorter than its Content-Length is a network error and leaves no file")
    func truncated() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = ScriptedTransport([ok200(Array(content[0..<600]), declaredLength: 1000)])
        let sink = FileSink(url: dir.file("out.bin"))
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(), expected: nil,
                errorFor: errorFor, itemFor: itemFor)
        }
        #expect(error?.code == .network)
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.bin").path))
        #expect(try dir.contents() == [])
    }

    @Test("a truncated resumable download keeps its partial file but no final file")
    func truncatedResumable() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = ScriptedTransport([ok200(Array(content[0..<600]), extra: [("ETag", "\"v1\"")], declaredLength: 1000)])
        let sink = FileSink(url: dir.file("out.bin"), resumable: true)
        await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(), expected: nil,
                errorFor: errorFor, itemFor: itemFor)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.bin").path))
        #expect(try Array(Data(contentsOf: sink.partialURL)) == Array(content[0..<600]))
        #expect(try await sink.resumePoint() == ResumePoint(length: 600, validator: "\"v1\""))
    }

    /// Puts `length` bytes of `content` in the partial file of a resumable sink, with `validator`.
    private func partial(_ dir: TemporaryDirectory, length: Int, validator: String?) throws -> FileSink {
        let sink = FileSink(url: dir.file("out.bin"), resumable: true)
        try Data(content[0..<length]).write(to: sink.partialURL)
        if let validator { try Data(validator.utf8).write(to: dir.file("out.bin.strata-partial.etag")) }
        return sink
    }

    @Test("resume sends Range and If-Range for a strong validator, and appends the 206 body")
    func resume206() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = try partial(dir, length: 400, validator: "\"v1\"")
        let rest = Array(content[400...])
        let transport = ScriptedTransport([
            .respond(
                status: 206,
                headers: [("Content-Range", "bytes 400-999/1000"), ("Content-Length", "600"), ("ETag", "\"v1\"")],
                pieces: pieces(rest[...], size: 128))
        ])
        let progress = Collector<TransferProgress>()
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink,
            options: DownloadOptions(resume: true, progress: { progress.append($0) }), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(transport.requests[0].header("Range") == "bytes=400-")
        #expect(transport.requests[0].header("If-Range") == "\"v1\"")
        #expect(result.offset == 400)
        #expect(result.bytesReceived == 600)
        #expect(result.item.size == 1000)
        #expect(try Array(Data(contentsOf: dir.file("out.bin"))) == content)
        #expect(try dir.contents() == ["out.bin"])
        #expect(progress.values.first?.completed == 400)
        #expect(progress.values.last == TransferProgress(completed: 1000, expected: 1000))
    }

    @Test("partial bytes kept with a weak validator, or none, are not continued: the whole file, no Range (a stored-less partial never borrows the listing's etag)",
        arguments: ["W/\"weak\"", nil, "Last-Modified: not a date"] as [String?])
    func resumeWithoutStrongValidator(_ validator: String?) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = try partial(dir, length: 10, validator: validator)
        let transport = ScriptedTransport([ok200(content, extra: [("ETag", "\"v2\"")])])
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(resume: true),
            expected: Item(path: "/file.bin", kind: .file, etag: "\"from-listing\""), errorFor: errorFor, itemFor: itemFor)
        #expect(transport.requests[0].header("Range") == nil)
        #expect(transport.requests[0].header("If-Range") == nil)
        #expect(result.offset == 0)
        #expect(try Array(Data(contentsOf: dir.file("out.bin"))) == content)
    }

    @Test("a 200 answer to a resume request starts the file over")
    func resumeAnswered200() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // The partial bytes are stale: the file changed on the server.
        let sink = FileSink(url: dir.file("out.bin"), resumable: true)
        try Data(repeating: 0xEE, count: 300).write(to: sink.partialURL)
        try Data("\"v1\"".utf8).write(to: URL(fileURLWithPath: sink.partialURL.path + ".etag"))
        let transport = ScriptedTransport([ok200(content, extra: [("ETag", "\"v2\"")])])
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(resume: true), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(transport.requests[0].header("Range") == "bytes=300-")
        #expect(result.offset == 0)
        #expect(result.bytesReceived == 1000)
        #expect(try Array(Data(contentsOf: dir.file("out.bin"))) == content)
        #expect(try dir.contents() == ["out.bin"])
    }

    @Test("416 when the partial file is already complete finishes the download")
    func resume416Complete() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = try partial(dir, length: 1000, validator: "\"v1\"")
        let transport = ScriptedTransport([.status(416, [("Content-Range", "bytes */1000")])])
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(resume: true), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(result.bytesReceived == 0)
        #expect(result.offset == 1000)
        #expect(try Array(Data(contentsOf: dir.file("out.bin"))) == content)
        #expect(try dir.contents() == ["out.bin"])
    }

    @Test("416 when the server's length differs is a conflict")
    func resume416Mismatch() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = try partial(dir, length: 500, validator: "\"v1\"")
        let transport = ScriptedTransport([.status(416, [("Content-Range", "bytes */400")])])
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(resume: true), expected: nil,
                errorFor: errorFor, itemFor: itemFor)
        }
        #expect(error?.code == .conflict)
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.bin").path))
    }

    @Test("a 206 starting elsewhere than the resume point is refused")
    func resumeWrongOffset() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = try partial(dir, length: 100, validator: nil)
        let transport = ScriptedTransport([
            .respond(status: 206, headers: [("Content-Range", "bytes 0-999/1000")], pieces: [content])
        ])
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(resume: true), expected: nil,
                errorFor: errorFor, itemFor: itemFor)
        }
        #expect(error?.code == .invalidResponse)
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.bin").path))
    }

    @Test("a 206 without Content-Range is an invalid response")
    func partialWithoutRange() async throws {
        let transport = ScriptedTransport([.respond(status: 206, headers: [], pieces: [[1, 2, 3]])])
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: MemorySink(), options: DownloadOptions(range: .bytes(0...2)),
                expected: nil, errorFor: errorFor, itemFor: itemFor)
        }
        #expect(error?.code == .invalidResponse)
    }

    @Test("a declared md5 that does not match is an integrity error and leaves no file")
    func digestMismatch() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = ScriptedTransport([ok200(content, extra: [("X-Test-MD5", md5(Array("something else".utf8)))])])
        let sink = FileSink(url: dir.file("out.bin"))
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(), expected: nil,
                errorFor: errorFor, itemFor: itemFor)
        }
        #expect(error?.code == .integrity)
        #expect(try dir.contents() == [])
    }

    @Test("a matching digest passes, in either case, from the response or the expected item")
    func digestMatch() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let transport = ScriptedTransport([ok200(content, extra: [("X-Test-MD5", md5(content).uppercased())]), ok200(content)])
        _ = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: FileSink(url: dir.file("a.bin")), options: DownloadOptions(),
            expected: nil, errorFor: errorFor, itemFor: itemFor)
        #expect(try Array(Data(contentsOf: dir.file("a.bin"))) == content)

        let expected = Item(path: "/file.bin", kind: .file, digests: [.sha256: Digester.hex(.sha256, of: content) ?? ""])
        _ = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: FileSink(url: dir.file("b.bin")), options: DownloadOptions(),
            expected: expected, errorFor: errorFor, itemFor: itemFor)
        #expect(try Array(Data(contentsOf: dir.file("b.bin"))) == content)
    }

    @Test("a wrong digest of the expected item fails; verifyDigest false skips the check")
    func digestFromExpected() async throws {
        let wrong = Item(path: "/file.bin", kind: .file, digests: [.sha1: String(repeating: "0", count: 40)])
        let transport = ScriptedTransport([ok200(content), ok200(content)])
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: MemorySink(), options: DownloadOptions(), expected: wrong,
                errorFor: errorFor, itemFor: itemFor)
        }
        #expect(error?.code == .integrity)
        let sink = MemorySink()
        _ = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(verifyDigest: false), expected: wrong,
            errorFor: errorFor, itemFor: itemFor)
        #expect(await sink.bytes == content)
    }

    @Test("a range request answered with the whole body is sliced", arguments: [
        (ByteRange.bytes(2...5), 2..<6), (.bytes(90...310), 90..<311), (.from(995), 995..<1000), (.suffix(3), 997..<1000),
        (.bytes(900...5000), 900..<1000), (.bytes(0...0), 0..<1),
    ])
    func rangeAnswered200(_ range: ByteRange, _ expected: Range<Int>) async throws {
        let transport = ScriptedTransport([ok200(content)])
        let sink = MemorySink()
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(range: range), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(transport.requests[0].header("Range") == range.httpHeaderValue)
        #expect(await sink.bytes == Array(content[expected]))
        #expect(result.offset == Int64(expected.lowerBound))
        #expect(result.bytesReceived == Int64(expected.count))
    }

    @Test("a range request answered with 206 is written as received")
    func range206() async throws {
        let transport = ScriptedTransport([
            .respond(status: 206, headers: [("Content-Range", "bytes 10-19/1000"), ("Content-Length", "10")], pieces: [Array(content[10..<20])])
        ])
        let sink = MemorySink()
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(range: .bytes(10...19)), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(await sink.bytes == Array(content[10..<20]))
        #expect(result.offset == 10)
        #expect(result.bytesReceived == 10)
    }

    @Test("304 for If-None-Match reports notModified and writes nothing")
    func notModified() async throws {
        let transport = ScriptedTransport([.status(304, [("ETag", "\"v1\"")])])
        let sink = MemorySink()
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(ifNoneMatch: "\"v1\""), expected: nil,
            errorFor: errorFor, itemFor: itemFor)
        #expect(transport.requests[0].header("If-None-Match") == "\"v1\"")
        #expect(result.notModified)
        #expect(result.bytesReceived == 0)
        #expect(await sink.bytes.isEmpty)
        #expect(await !sink.isFinished)
    }

    @Test("If-Match is sent, and an error status goes through errorFor with its body")
    func errorStatus() async throws {
        let transport = ScriptedTransport([.status(412, body: "precondition")])
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: MemorySink(), options: DownloadOptions(ifMatch: "\"v0\""), expected: nil,
                errorFor: errorFor, itemFor: itemFor)
        }
        #expect(transport.requests[0].header("If-Match") == "\"v0\"")
        #expect(error?.code == .preconditionFailed)
        #expect(error?.message == "precondition")
    }

    @Test("progress is monotonic and ends at the size")
    func progress() async throws {
        let transport = ScriptedTransport([ok200(content)])
        let progress = Collector<TransferProgress>()
        _ = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: MemorySink(), options: DownloadOptions(progress: { progress.append($0) }),
            expected: nil, errorFor: errorFor, itemFor: itemFor)
        let values = progress.values
        #expect(values.count >= 11, "one update per piece")
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        #expect(values.allSatisfy { $0.expected == 1000 })
        #expect(values.first?.completed == 0)
        #expect(values.last?.completed == 1000)
        #expect(values.last?.fractionCompleted == 1)
    }

    @Test("a MemorySink refuses a body over its limit")
    func memoryLimit() async throws {
        let transport = ScriptedTransport([ok200(content)])
        await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: MemorySink(limit: 500), options: DownloadOptions(), expected: nil,
                errorFor: errorFor, itemFor: itemFor)
        }
    }
}

@Suite("ContentRange")
struct ContentRangeTests {
    @Test("valid values")
    func valid() throws {
        let full = try #require(ContentRange("bytes 0-99/100"))
        #expect(full.start == 0 && full.end == 99 && full.total == 100)
        let unknownTotal = try #require(ContentRange("bytes 5-9/*"))
        #expect(unknownTotal.start == 5 && unknownTotal.end == 9 && unknownTotal.total == nil)
        let unsatisfied = try #require(ContentRange("bytes */1000"))
        #expect(unsatisfied.start == 0 && unsatisfied.end == -1 && unsatisfied.total == 1000)
        let spaced = try #require(ContentRange("  BYTES 1-1/2 "))
        #expect(spaced.start == 1 && spaced.end == 1 && spaced.total == 2)
        let big = try #require(ContentRange("bytes 5000000000-5000000001/9000000000"))
        #expect(big.start == 5_000_000_000 && big.total == 9_000_000_000)
    }

    @Test("malformed values are nil", arguments: [
        "", "bytes", "bytes ", "bytes 0-99", "bytes 0-99/", "bytes 0-99/abc", "bytes 9-3/10", "bytes a-b/10", "items 0-1/2",
        "bytes=0-99/100", "bytes -5/10", "bytes 5-/10", "0-99/100",
    ])
    func malformed(_ value: String) {
        #expect(ContentRange(value) == nil, "\(value.debugDescription)")
    }

    @Test("ByteRange header values")
    func byteRange() {
        #expect(ByteRange.bytes(0...99).httpHeaderValue == "bytes=0-99")
        #expect(ByteRange.from(400).httpHeaderValue == "bytes=400-")
        #expect(ByteRange.suffix(10).httpHeaderValue == "bytes=-10")
    }
}

@Suite("HTTPDownloader hooks for quirky servers")
struct HTTPDownloaderHookTests {
    @Test("a 200 the adapter calls an error page is an error, and nothing reaches the sink")
    func errorPage() async throws {
        let page = Array(#"<?xml version="1.0"?><tree ><message type="ERROR">Cannot find file!</message></tree>"#.utf8)
        let transport = ScriptedTransport([ok200(page, extra: [("Content-Type", "text/xml")])])
        let sink = MemorySink()
        let error = await #expect(throws: ProviderError.self) {
            _ = try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(), expected: nil,
                errorFor: { _, body in ProviderError(.notFound, String(buffer: body)) }, itemFor: itemFor,
                isError: { $0.headers.first(name: "content-type") == "text/xml" })
        }
        #expect(error?.code == .notFound)
        #expect(error?.message?.contains("Cannot find file!") == true)
        #expect(await sink.bytes.isEmpty)
    }

    @Test("a range spelled one byte wider, as an off-by-one server needs, still gives exactly the range")
    func spelledRange() async throws {
        // The server answers bytes=10-20 with 10-19, as Pydio 8 does.
        let transport = ScriptedTransport([
            .respond(status: 206, headers: [("Content-Range", "bytes 10-19/1000"), ("Content-Length", "10")], pieces: [Array(content[10..<20])])
        ])
        let sink = MemorySink()
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(range: .bytes(10...19)),
            expected: Item(path: "/file.bin", kind: .file, size: 1000), errorFor: errorFor, itemFor: itemFor,
            rangeHeader: { range, size in
                if case .bytes(let bounds) = range { return "bytes=\(bounds.lowerBound)-\(bounds.upperBound + 1)" }
                return "bytes=0-\(size ?? 0)"
            })
        #expect(transport.requests[0].header("Range") == "bytes=10-20")
        #expect(await sink.bytes == Array(content[10..<20]))
        #expect(result.offset == 10)
    }

    @Test("a resumed 206 that stops short of the end is refused, so a file is never left short")
    func shortResume() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let target = dir.file("out.bin")
        let sink = FileSink(url: target, resumable: true)
        try await sink.begin(offset: 0, expectedLength: 1000, validator: nil)
        try await sink.write(ByteBuffer(bytes: content[..<400]))
        await sink.fail()
        // One byte short of the end, as an off-by-one server answers an open range.
        let transport = ScriptedTransport([
            .respond(status: 206, headers: [("Content-Range", "bytes 400-998/1000"), ("Content-Length", "599")], pieces: [Array(content[400..<999])])
        ])
        await #expect(throws: ProviderError.self) {
            _ = try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: FileSink(url: target, resumable: true), options: DownloadOptions(resume: true),
                expected: nil, errorFor: errorFor, itemFor: itemFor)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}

/// A dialect as an outside adapter writes it when its server follows RFC 9110: the item only.
private struct PlainAnswers: HTTPDownloadDialect {
    func item(from response: TransportResponse) -> Item { Item(path: "/file.bin", kind: .file, etag: response.etag) }
}

@Suite("HTTPDownloader with a dialect that writes only the item")
struct HTTPDownloadDialectDefaultTests {
    @Test("the defaults: the standard Range spelling, the status's error with the request named, no error pages")
    func defaults() async throws {
        let transport = ScriptedTransport([
            .respond(status: 206, headers: [("Content-Range", "bytes 10-19/1000"), ("Content-Length", "10")], pieces: [Array(content[10..<20])]),
            .status(404, body: "gone"),
        ])
        let sink = MemorySink()
        let result = try await downloader(transport).download(
            TransportRequest(method: .GET, url: fileURL), to: sink, options: DownloadOptions(range: .bytes(10...19)), expected: nil,
            dialect: PlainAnswers())
        #expect(transport.requests[0].header("Range") == "bytes=10-19")
        #expect(await sink.bytes == Array(content[10..<20]))
        #expect(result.item.size == 1000)
        let error = await #expect(throws: ProviderError.self) {
            try await downloader(transport).download(
                TransportRequest(method: .GET, url: fileURL), to: MemorySink(), options: DownloadOptions(), expected: nil, dialect: PlainAnswers())
        }
        #expect(error?.code == .notFound)
        #expect(error?.httpStatus == 404)
        #expect(error?.request?.contains("file.bin") == true)
    }
}
