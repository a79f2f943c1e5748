import NIOCore
import ProviderAPI
import Testing

@testable import TransferEngine

/// The pipe between a download and an upload: bounded, exact about lengths, first failure wins.
@Suite("the pipe between a download and an upload")
struct BytePipeTests {
    private static func piece(_ count: Int, _ byte: UInt8 = 7) -> ByteBuffer {
        ByteBuffer(bytes: [UInt8](repeating: byte, count: count))
    }

    @Test("a writer with no reader stops at the capacity; a reader then takes every byte in order")
    func bounded() async throws {
        let pipe = BytePipe(capacity: 64 << 10, expectedLength: 10 * (32 << 10))
        let writer = Task {
            try await pipe.begin(offset: 0)
            for index in 0..<10 { try await pipe.write(Self.piece(32 << 10, UInt8(index))) }
            try await pipe.finish()
        }
        try await Task.sleep(for: .milliseconds(50))
        // Whenever this runs, the writer cannot be past the capacity: it waits for a reader.
        #expect(await pipe.written <= 64 << 10)
        var received: [UInt8] = []
        while let piece = try await pipe.next() { received += Array(piece.readableBytesView) }
        try await writer.value
        #expect(received.count == 10 * (32 << 10))
        #expect(received.first == 0 && received.last == 9)
        #expect(await pipe.read == Int64(received.count))
    }

    @Test("more bytes than declared, or fewer, is an integrity error for both sides")
    func lengths() async throws {
        let long = BytePipe(capacity: 1 << 20, expectedLength: 4)
        let tooMany = await #expect(throws: ProviderError.self) { try await long.write(Self.piece(5)) }
        #expect(tooMany?.code == .integrity)
        let short = BytePipe(capacity: 1 << 20, expectedLength: 4)
        try await short.write(Self.piece(3))
        let tooFew = await #expect(throws: ProviderError.self) { try await short.finish() }
        #expect(tooFew?.code == .integrity)
        let readerSees = await #expect(throws: ProviderError.self) { _ = try await short.next() }
        #expect(readerSees?.code == .integrity)
    }

    @Test("the first failure is what both sides see; a restart elsewhere than where the pipe got to is refused")
    func firstFailureWins() async throws {
        let pipe = BytePipe(capacity: 1 << 20, expectedLength: nil)
        try await pipe.write(Self.piece(10))
        await #expect(throws: ProviderError.self) { try await pipe.begin(offset: 0) }
        try await pipe.begin(offset: 10)
        let reader = Task { () -> ProviderError? in
            do {
                while try await pipe.next() != nil {}
                return nil
            } catch {
                return error as? ProviderError
            }
        }
        let first = await pipe.fail(ProviderError(.network, "the download broke"))
        let second = await pipe.fail(ProviderError(.server, "the upload's echo"))
        #expect(first.code == .network && second.code == .network)
        #expect(await reader.value?.code == .network)
        let writer = await #expect(throws: ProviderError.self) { try await pipe.write(Self.piece(1)) }
        #expect(writer?.code == .network)
    }

    @Test("an upload source made from the pipe can be streamed once only")
    func oneShot() async throws {
        let source = PipeSource(pipe: BytePipe(capacity: 1 << 10, expectedLength: 0), length: 0)
        #expect(!source.isReplayable)
        _ = try source.makeStream()
        #expect(throws: ProviderError.self) { _ = try source.makeStream() }
    }
}
