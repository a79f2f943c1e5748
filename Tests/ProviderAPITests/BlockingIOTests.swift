import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ProviderAPI
@testable import ProviderKit
import Testing

/// Where a piece of blocking work ran.
private struct Placement: Sendable, Equatable {
    /// Whether the thread was one of swift-nio's event loops.
    let onEventLoop: Bool
    /// The thread's name (swift-nio's singleton blocking pool names its threads `SGLTN-TP-#N`).
    let thread: String

    static var here: Placement {
        Placement(onEventLoop: MultiThreadedEventLoopGroup.currentEventLoop != nil, thread: currentThreadName())
    }

    var onBlockingPool: Bool { !onEventLoop && thread.contains("TP-#") }
}

private func currentThreadName() -> String {
    #if canImport(Darwin)
        var name = [CChar](repeating: 0, count: 64)
        guard pthread_getname_np(pthread_self(), &name, name.count) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
        // Linux keeps the name swift-nio gave the thread (`prctl(PR_SET_NAME)`) in its comm file.
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .newlines)
    #endif
}

/// Code isolated to an event loop, as a task is in a host that runs its tasks on swift-nio's loops.
private actor LoopCaller {
    let loop: any EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    init(_ loop: any EventLoop) { self.loop = loop }

    /// Streams `pieces` pieces of `size` bytes each into `sink`, as a download does, from the loop.
    func download(into sink: FileSink, pieces: Int, size: Int) async throws -> Bool {
        let onLoop = loop.inEventLoop
        try await sink.begin(offset: 0, expectedLength: Int64(pieces * size), validator: nil)
        for index in 0..<pieces {
            try await sink.write(ByteBuffer(repeating: UInt8(truncatingIfNeeded: index), count: size))
        }
        try await sink.finish()
        return onLoop && loop.inEventLoop
    }

    func run() async throws -> (caller: Bool, work: Placement) {
        let onLoop = loop.inEventLoop
        let work = try await BlockingIO.run { Placement.here }
        return (onLoop && loop.inEventLoop, work)
    }
}

@Suite("BlockingIO")
struct BlockingIOTests {
    @Test("work called from an event loop runs on swift-nio's blocking thread pool, and the caller resumes on its loop")
    func fromEventLoop() async throws {
        let caller = LoopCaller(MultiThreadedEventLoopGroup.singleton.next())
        let seen = try await caller.run()
        #expect(seen.caller, "the caller ran on its event loop before and after")
        #expect(seen.work.onBlockingPool, "\(seen.work)")
    }

    @Test("an error thrown by the work reaches the caller")
    func error() async throws {
        let error = await #expect(throws: ProviderError.self) {
            try await BlockingIO.run { () throws -> Int in throw ProviderError(.io, "disk") }
        }
        #expect(error?.code == .io)
    }

    @Test("clean-up runs even in a cancelled task")
    func cleanUpWhenCancelled() async throws {
        let ran = NIOLockedValueBox(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await BlockingIO.cleanUp { ran.withLockedValue { $0 = true } }
        }
        await task.value
        #expect(ran.withLockedValue { $0 })
    }

    @Test("a FileSink fed from an event loop writes on the blocking thread pool, one hop per MiB, never on the loop")
    func fileSinkWritesOffTheLoop() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("big.bin"))
        let seen = NIOLockedValueBox<[Placement]>([])
        await sink.watchWrites { seen.withLockedValue { $0.append(.here) } }
        let caller = LoopCaller(MultiThreadedEventLoopGroup.singleton.next())
        // 3 MiB in 48 pieces of 64 KiB, as the network hands a download over.
        #expect(try await caller.download(into: sink, pieces: 48, size: 64 << 10), "the caller stayed on its loop")
        let placements = seen.withLockedValue { $0 }
        #expect(placements.count == 4, "three full batches of 1 MiB and the final flush, not a hop per piece: \(placements)")
        #expect(placements.allSatisfy { $0.onBlockingPool }, "\(placements)")
        let written = try Data(contentsOf: dir.file("big.bin"))
        #expect(written.count == 48 << 16)
        #expect(written[47 << 16] == 47)
        #expect(written[(20 << 16) + 5] == 20)
        #expect(try dir.contents() == ["big.bin"])
    }
}
