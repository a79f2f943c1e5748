import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

/// An upload source that hands out some bytes, then waits until it is cancelled or released,
/// to cancel an upload in the middle.
struct StallingSource: UploadSource {
    /// Shared between the source and the case that watches it.
    final class Control: Sendable {
        private struct State {
            var stalled = false
            var released = false
            var delivered: Int64 = 0
        }
        private let state = NIOLockedValueBox(State())

        var hasStalled: Bool { state.withLockedValue { $0.stalled } }
        var delivered: Int64 { state.withLockedValue { $0.delivered } }
        fileprivate var isReleased: Bool { state.withLockedValue { $0.released } }
        fileprivate func markStalled() { state.withLockedValue { $0.stalled = true } }
        fileprivate func add(_ count: Int) { state.withLockedValue { $0.delivered += Int64(count) } }

        /// Makes a waiting read fail, as if its task had been cancelled.
        func release() { state.withLockedValue { $0.released = true } }

        /// Waits until the provider has read everything before the stall, up to `limit`.
        func waitUntilStalled(limit: Duration) async -> Bool {
            let clock = ContinuousClock()
            let deadline = clock.now + limit
            while !hasStalled, clock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return hasStalled
        }
    }

    let control = Control()
    let chunk: [UInt8]
    let chunksBeforeStall: Int
    let length: Int64?
    var isReplayable: Bool { false }

    /// A source that gives `chunksBeforeStall` pieces of `chunk`, then stalls; it claims `length` bytes in all.
    init(chunk: [UInt8], chunksBeforeStall: Int, length: Int64?) {
        self.chunk = chunk
        self.chunksBeforeStall = chunksBeforeStall
        self.length = length
    }

    func makeStream() throws -> UploadStream {
        let counter = NIOLockedValueBox(0)
        let control = control
        let chunk = chunk
        let limit = chunksBeforeStall
        return UploadStream {
            let index = counter.withLockedValue { value -> Int in
                defer { value += 1 }
                return value
            }
            if index < limit {
                control.add(chunk.count)
                return ByteBuffer(bytes: chunk)
            }
            control.markStalled()
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            while !control.isReleased, !Task.isCancelled, clock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            throw CancellationError()
        }
    }
}
