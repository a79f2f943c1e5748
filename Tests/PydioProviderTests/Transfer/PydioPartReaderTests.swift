import Foundation
import NIOCore
import ProviderAPI
import Testing
@testable import PydioProvider
import ProviderKit

/// The address of a buffer's first readable byte.
private func address(_ buffer: ByteBuffer) -> UInt? {
    buffer.withUnsafeReadableBytes { raw in raw.baseAddress.map { UInt(bitPattern: $0) } }
}

@Suite("Pydio part reader")
struct PydioPartReaderTests {
    let bytes = patternBytes(10_000 * 3 + 1_234, seed: 5)

    @Test("parts cover the source exactly, from pieces smaller or larger than a part", arguments: [999, 10_000, 256 << 10])
    func coversSource(_ piece: Int) async throws {
        let source = AsyncSequenceSource(PydioPieces(bytes: bytes, size: piece), length: Int64(bytes.count))
        var reader = try PydioPartReader(source: source, length: Int64(bytes.count), partSize: 10_000)
        var sizes: [Int] = []
        var joined: [UInt8] = []
        while let part = try await reader.next() {
            sizes.append(part.readableBytes)
            joined += part.readableBytesView
        }
        #expect(sizes == [10_000, 10_000, 10_000, 1_234])
        #expect(joined == bytes)
    }

    @Test("a part let go of is refilled in place; a part still held keeps its bytes")
    func reusesStorage() async throws {
        var reader = try PydioPartReader(source: DataSource(bytes: bytes), length: Int64(bytes.count), partSize: 10_000)
        let first = try await reader.next().map(address)
        let second = try #require(try await reader.next())
        #expect(address(second) == first, "the storage of part 0 was not reused for part 1")
        let third = try #require(try await reader.next())
        #expect(Array(second.readableBytesView) == Array(bytes[10_000..<20_000]))
        #expect(Array(third.readableBytesView) == Array(bytes[20_000..<30_000]))
    }

    @Test("a part source streams the part's bytes, as often as it is replayed")
    func partSource() async throws {
        let part = ByteBuffer(bytes: patternBytes(600_000))
        let source = PydioPartSource(part)
        #expect(source.length == 600_000 && source.isReplayable)
        for _ in 0..<2 {
            var got: [UInt8] = []
            for try await piece in try source.makeStream() { got += piece.readableBytesView }
            #expect(got == Array(part.readableBytesView))
        }
    }
}

@Suite("Pydio uploads in parts on the loopback server")
struct PydioPartUploadTests {
    @Test("a file uploaded in parts from disk lands with its SHA-256, whatever the part size against the read size", arguments: [
        65_536, 100_000, 1 << 20,
    ])
    func fileInParts(_ partSize: Int) async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch(options: ["chunkSize": String(partSize)])
        let bytes = patternBytes((2 << 20) + 4_321, seed: 9)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pydio-\(UUID().uuidString).bin")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let item = try await provider.upload(try FileSource(url: file), to: .root, name: "parts.bin", options: UploadOptions())
        #expect(item.size == Int64(bytes.count))
        let parts = pydio.server.requests().filter { $0.action == "upload" && $0.parameter("partial_upload") == "true" }
        #expect(parts.count == (bytes.count + partSize - 1) / partSize)
        let sink = MemorySink()
        _ = try await provider.download(item.path, to: sink, options: DownloadOptions())
        let got = await sink.bytes
        #expect(got.count == bytes.count)
        #expect(Digester.hex(.sha256, of: got) == Digester.hex(.sha256, of: bytes))
    }
}

/// `bytes` as an async sequence of pieces of `size` bytes.
struct PydioPieces: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let bytes: [UInt8]
    let size: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        let size: Int
        var offset = 0
        mutating func next() async throws -> ByteBuffer? {
            guard offset < bytes.count else { return nil }
            let end = Swift.min(bytes.count, offset + size)
            defer { offset = end }
            return ByteBuffer(bytes: bytes[offset..<end])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, size: size) }
}
