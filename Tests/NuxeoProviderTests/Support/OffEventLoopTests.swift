import Foundation
import NIOCore
import NIOPosix
import ProviderAPI
import Testing
import HTTPProviderKit
import NuxeoProvider

/// Code isolated to an event loop, as a task is in a host that runs its tasks on the loops.
private actor OnEventLoop {
    let loop: any EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }

    init(_ loop: any EventLoop) { self.loop = loop }

    /// Where the code runs: before the work, inside it and after it.
    func placement() async throws -> (before: Bool, inside: Bool, after: Bool, loopRanMeanwhile: Bool) {
        let before = OffEventLoop.isOnEventLoop && loop.inEventLoop
        let loop = self.loop
        let inside = try await OffEventLoop.run { () -> (Bool, Bool) in
            // The loop is free while the work runs: a task submitted to it now completes before the work ends.
            // (Waiting on the loop itself would trap: only off it.)
            let ran = loop.inEventLoop ? false : ((try? loop.submit { true }.wait()) ?? false)
            return (OffEventLoop.isOnEventLoop, ran)
        }
        let after = OffEventLoop.isOnEventLoop && loop.inEventLoop
        return (before, inside.0, after, inside.1)
    }

    func failing() async throws {
        _ = try await OffEventLoop.run { () throws -> Int in throw ProviderError(.invalidResponse, "bad page") }
    }
}

@Suite("OffEventLoop")
struct OffEventLoopTests {
    @Test("work called from an event loop runs on another thread, the loop stays free meanwhile, and the caller resumes on its loop")
    func fromEventLoop() async throws {
        let actor = OnEventLoop(MultiThreadedEventLoopGroup.singleton.next())
        let seen = try await actor.placement()
        #expect(seen.before)
        #expect(!seen.inside)
        #expect(seen.loopRanMeanwhile)
        #expect(seen.after)
        await #expect(throws: ProviderError.self) { try await actor.failing() }
    }

    @Test("work called off the event loops runs in place, on the caller's thread")
    func offEventLoop() async throws {
        #expect(!OffEventLoop.isOnEventLoop)
        let caller = pthread_self()
        let ranOn = try await OffEventLoop.run { pthread_self() }
        #expect(pthread_equal(caller, ranOn) != 0)
        let error = await #expect(throws: ProviderError.self) {
            try await OffEventLoop.run { () throws -> Int in throw ProviderError(.invalidResponse, "bad page") }
        }
        #expect(error?.code == .invalidResponse)
    }
}
