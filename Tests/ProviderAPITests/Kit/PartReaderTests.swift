import NIOCore
import ProviderAPI
import ProviderKit
import Testing

/// The address of a buffer's first readable byte.
private func address(_ buffer: ByteBuffer) -> UInt? {
    buffer.withUnsafeReadableBytes { raw in raw.baseAddress.map { UInt(bitPattern: $0) } }
}

/// `count` bytes of a pattern that differs from one offset to the next.
private func pattern(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 9)) &+ seed }
}

/// `bytes` as an async sequence of pieces of `size` bytes.
private struct Pieces: AsyncSequence, Sendable {
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

@Suite("PartReader")
struct PartReaderTests {
    let bytes = pattern(10_000 * 3 + 1_234, seed: 3)

    @Test("parts cover the source exactly, from pieces smaller or larger than a part", arguments: [999, 4_096, 10_000, 256 << 10])
    func coversSource(_ piece: Int) async throws {
        let source = AsyncSequenceSource(Pieces(bytes: bytes, size: piece), length: Int64(bytes.count))
        var reader = try PartReader(source: source, length: Int64(bytes.count), partSize: 10_000)
        var seen: [Int] = []
        var offsets: [Int64] = []
        var joined: [UInt8] = []
        while let part = try await reader.next() {
            seen.append(part.index)
            offsets.append(part.offset)
            #expect(part.bytes.readableBytes == (part.index < 3 ? 10_000 : 1_234))
            joined += part.bytes.readableBytesView
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(offsets == [0, 10_000, 20_000, 30_000])
        #expect(joined == bytes)
        try await reader.expectEnd()
    }

    @Test("a part let go of is refilled in place; a part still held is never overwritten")
    func reusesStorage() async throws {
        var reader = try PartReader(source: DataSource(bytes: bytes), length: Int64(bytes.count), partSize: 10_000)
        let first = try await reader.next().map { ($0.index, address($0.bytes)) }
        let second = try #require(try await reader.next())
        #expect(first?.0 == 0 && second.index == 1)
        #expect(address(second.bytes) == first?.1, "the storage of part 0 was not reused for part 1")
        // Hold part 1 while reading part 2: part 1 keeps its bytes.
        let third = try #require(try await reader.next())
        #expect(Array(second.bytes.readableBytesView) == Array(bytes[10_000..<20_000]))
        #expect(Array(third.bytes.readableBytesView) == Array(bytes[20_000..<30_000]))
        #expect(address(third.bytes) != address(second.bytes))
    }

    @Test("only the parts asked for are handed over, with their own bytes")
    func onlyWanted() async throws {
        var reader = try PartReader(source: DataSource(bytes: bytes), length: Int64(bytes.count), partSize: 10_000, only: [1, 3])
        let one = try #require(try await reader.next())
        #expect(one.index == 1 && one.offset == 10_000 && Array(one.bytes.readableBytesView) == Array(bytes[10_000..<20_000]))
        let three = try #require(try await reader.next())
        #expect(three.index == 3 && Array(three.bytes.readableBytesView) == Array(bytes[30_000...]))
        #expect(try await reader.next() == nil)
    }

    @Test("a source shorter than announced is a conflict; a longer one fails expectEnd")
    func wrongLength() async throws {
        var short = try PartReader(source: DataSource(bytes: bytes), length: Int64(bytes.count) + 10, partSize: 10_000)
        let error = await #expect(throws: ProviderError.self) {
            while try await short.next() != nil {}
        }
        #expect(error?.code == .conflict)
        var long = try PartReader(source: DataSource(bytes: bytes), length: 25_000, partSize: 10_000)
        var sizes: [Int] = []
        while let part = try await long.next() { sizes.append(part.bytes.readableBytes) }
        #expect(sizes == [10_000, 10_000, 5_000])
        let extra = await #expect(throws: ProviderError.self) { try await long.expectEnd() }
        #expect(extra?.code == .conflict)
    }

    @Test("an empty source has no part; a part size of zero is refused")
    func edges() async throws {
        var empty = try PartReader(source: DataSource(bytes: []), length: 0, partSize: 10)
        #expect(try await empty.next() == nil)
        try await empty.expectEnd()
        let error = #expect(throws: ProviderError.self) {
            _ = try PartReader(source: DataSource(bytes: bytes), length: 10, partSize: 0)
        }
        #expect(error?.code == .invalidArgument)
    }
}
