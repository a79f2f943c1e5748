import Dispatch
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import ProviderAPI
@testable import HTTPProviderKit

/// The upload body AsyncHTTPClient pulls waits for the event loops every few pieces, so pieces
/// cannot pile up on an event loop that is behind.
@Suite("Upload pieces in flight are bounded")
struct UploadPacingTests {
    @Test("no more than a window of pieces is handed out while the event loop is busy")
    func windowWhileLoopBusy() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let gate = DispatchSemaphore(value: 0)
        loop.execute { gate.wait() }  // the event loop is stuck until the gate opens (a NIO thread, not the pool)

        let made = NIOLockedValueBox(0)
        let source = UploadStream {
            made.withLockedValue { count -> ByteBuffer? in
                guard count < 16 else { return nil }
                count += 1
                return ByteBuffer(repeating: UInt8(count), count: 1024)
            }
        }
        let stream = CountingStream(base: source, expected: nil, progress: nil, loops: [loop], window: 4)
        let received = NIOLockedValueBox(0)
        let consumer = Task {
            for try await _ in stream { received.withLockedValue { $0 += 1 } }
        }
        // Four pieces go out at once; the fifth waits for the loop.
        for _ in 0..<500 where received.withLockedValue({ $0 }) < 4 { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(received.withLockedValue { $0 } == 4)
        #expect(made.withLockedValue { $0 } == 4, "the source is not even read ahead")

        gate.signal()
        try await consumer.value
        #expect(received.withLockedValue { $0 } == 16)
        try await group.shutdownGracefully()
    }

    @Test("a shut-down event loop fails the body instead of hanging it")
    func loopGone() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        try await group.shutdownGracefully()
        let source = UploadStream { ByteBuffer(repeating: 1, count: 16) }
        let stream = CountingStream(base: source, expected: nil, progress: nil, loops: [loop], window: 2)
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()
        await #expect(throws: (any Error).self) { _ = try await iterator.next() }
    }
}
