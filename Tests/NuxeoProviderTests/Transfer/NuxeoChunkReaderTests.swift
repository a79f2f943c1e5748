import Foundation
import NIOCore
import ProviderAPI
import Testing
@testable import NuxeoProvider

/// The address of a buffer's first readable byte.
private func address(_ buffer: ByteBuffer) -> UInt? {
    buffer.withUnsafeReadableBytes { raw in raw.baseAddress.map { UInt(bitPattern: $0) } }
}

@Suite("Nuxeo chunk reader")
struct NuxeoChunkReaderTests {
    let bytes = patternBytes(10_000 * 3 + 1_234, seed: 3)

    @Test("chunks cover the source exactly, whether its pieces are smaller or larger than a chunk", arguments: [4_096, 256 << 10])
    func coversSource(_ piece: Int) async throws {
        let source = AsyncSequenceSource(Pieces(bytes: bytes, size: piece), length: Int64(bytes.count))
        var reader = try NuxeoChunkReader(source: source, length: Int64(bytes.count), chunkSize: 10_000, only: nil)
        var seen: [Int] = []
        var joined: [UInt8] = []
        while let (index, chunk) = try await reader.next() {
            seen.append(index)
            #expect(chunk.readableBytes == (index < 3 ? 10_000 : 1_234))
            joined += chunk.readableBytesView
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(joined == bytes)
    }

    @Test("a chunk let go of is refilled in place; a chunk still held is never overwritten")
    func reusesStorage() async throws {
        var reader = try NuxeoChunkReader(source: DataSource(bytes: bytes), length: Int64(bytes.count), chunkSize: 10_000, only: nil)
        let first = try await reader.next().map { ($0.0, address($0.1)) }
        let second = try #require(try await reader.next())
        #expect(first?.0 == 0 && second.0 == 1)
        #expect(address(second.1) == first?.1, "the storage of chunk 0 was not reused for chunk 1")
        // Hold chunk 1 while reading chunk 2: chunk 1 keeps its bytes.
        let third = try #require(try await reader.next())
        #expect(Array(second.1.readableBytesView) == Array(bytes[10_000..<20_000]))
        #expect(Array(third.1.readableBytesView) == Array(bytes[20_000..<30_000]))
        #expect(address(third.1) != address(second.1))
    }

    @Test("only the chunks asked for are handed over, with their own bytes")
    func onlyWanted() async throws {
        var reader = try NuxeoChunkReader(source: DataSource(bytes: bytes), length: Int64(bytes.count), chunkSize: 10_000, only: [1, 3])
        let one = try #require(try await reader.next())
        #expect(one.0 == 1 && Array(one.1.readableBytesView) == Array(bytes[10_000..<20_000]))
        let three = try #require(try await reader.next())
        #expect(three.0 == 3 && Array(three.1.readableBytesView) == Array(bytes[30_000...]))
        #expect(try await reader.next() == nil)
    }
}

/// `bytes` as an async sequence of pieces of `size` bytes.
struct Pieces: AsyncSequence, Sendable {
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
