import Foundation
import LoopbackServerKit
import NIOConcurrencyHelpers
import NIOCore

/// The state a ``HostileServer`` shares with its connections: the recorded requests, the bytes
/// sent, and the tasks playing answers (so ``stop()`` can end them).
final class HostileServerCore: Sendable {
    let scenario: HostileScenario
    let timeLimit: Duration
    let started = ContinuousClock.now

    private struct State {
        var requests: [HostileRequest] = []
        var sent: [Int: Int64] = [:]
        var tasks: [Int: Task<Void, Never>] = [:]
        var ended: Set<Int> = []
        /// Who waits for the answer to a request to end (``waitForEnd(_:within:)``).
        var waiters: [Int: [@Sendable (Bool) -> Void]] = [:]
        var connections: [ObjectIdentifier: any Channel] = [:]
        var context: HostileContext?
        var stopped = false
    }
    private let state = NIOLockedValueBox(State())

    init(scenario: HostileScenario, timeLimit: Duration) {
        self.scenario = scenario
        self.timeLimit = timeLimit
    }

    func bound(port: Int, url: URL) {
        let context = HostileContext(baseURL: url, port: port, started: started, timeLimit: timeLimit)
        state.withLockedValue { $0.context = context }
    }

    var requests: [HostileRequest] { state.withLockedValue { $0.requests } }

    func bytesSent(to index: Int) -> Int64 { state.withLockedValue { $0.sent[index] ?? 0 } }

    func opened(_ channel: any Channel) {
        let stopped = state.withLockedValue { state -> Bool in
            if !state.stopped { state.connections[ObjectIdentifier(channel)] = channel }
            return state.stopped
        }
        if stopped { channel.close(promise: nil) }
    }

    func closed(_ channel: any Channel) {
        _ = state.withLockedValue { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Records a request and starts playing the scenario's answer on `channel`.
    func received(
        method: String, uri: String, headers: [HostileRequest.Header], bodySize: Int, bodyPrefix: [UInt8], on channel: any Channel,
        cut: Bool = false
    ) {
        let (path, query): (String, String?) = {
            guard let mark = uri.firstIndex(of: "?") else { return (uri, nil) }
            return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
        }()
        state.withLockedValue { state in
            let request = HostileRequest(
                index: state.requests.count, method: method, path: path, query: query, headers: headers, bodySize: bodySize,
                bodyPrefix: bodyPrefix, cut: cut)
            state.requests.append(request)
            guard !state.stopped, let context = state.context else {
                channel.close(promise: nil)
                return
            }
            let response = scenario.route(request, context)
            let index = request.index
            // On the servers' own threads: a task on the tests' pool waited there behind the
            // whole suite's work, and a loaded run saw answers 30 s late (LoopbackExecutor).
            state.tasks[index] = Task(executorPreference: LoopbackExecutor.shared) {
                await self.play(response, index: index, on: channel)
                try? await channel.close()
                self.finished(index)
            }
        }
    }

    private func finished(_ index: Int) {
        let waiters = state.withLockedValue { state in
            state.tasks.removeValue(forKey: index)
            state.ended.insert(index)
            return state.waiters.removeValue(forKey: index) ?? []
        }
        for waiter in waiters { waiter(true) }
    }

    /// Waits until the answer to request `index` has ended (played out, or cut short because the
    /// client left, the time limit passed or the server stopped), woken by the answer's own end;
    /// `false` when `limit` passed first.
    func waitForEnd(_ index: Int, within limit: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let pending = NIOLockedValueBox<CheckedContinuation<Bool, Never>?>(continuation)
            let resume: @Sendable (Bool) -> Void = { ended in
                pending.withLockedValue { slot -> CheckedContinuation<Bool, Never>? in
                    defer { slot = nil }
                    return slot
                }?.resume(returning: ended)
            }
            let ended = state.withLockedValue { state -> Bool in
                if state.ended.contains(index) { return true }
                state.waiters[index, default: []].append(resume)
                return false
            }
            if ended {
                resume(true)
            } else {
                // The guard of a test that would otherwise hang: it fails the wait, it does not time the answer.
                Task(executorPreference: LoopbackExecutor.shared) {
                    try? await Task.sleep(for: limit)
                    resume(false)
                }
            }
        }
    }

    private func play(_ response: HostileResponse, index: Int, on channel: any Channel) async {
        let deadline = started + timeLimit
        func live() -> Bool { channel.isActive && !Task.isCancelled && ContinuousClock.now < deadline }
        func write(_ bytes: [UInt8]) async -> Bool {
            guard live() else { return false }
            do {
                try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
            } catch {
                return false
            }
            state.withLockedValue { $0.sent[index, default: 0] += Int64(bytes.count) }
            return true
        }
        func pause(_ duration: Duration) async -> Bool {
            let end = min(ContinuousClock.now + duration, deadline)
            // Short naps, so a client that leaves ends the pause.
            while live(), ContinuousClock.now < end {
                try? await Task.sleep(for: min(.milliseconds(50), end - ContinuousClock.now))
            }
            return live()
        }
        for step in response.steps {
            switch step {
            case .bytes(let bytes):
                guard await write(bytes) else { return }
            case .pause(let duration):
                guard await pause(duration) else { return }
            case .repeating(let piece, let count, let interval):
                for _ in 0..<max(0, count) {
                    guard await write(piece) else { return }
                    if interval > .zero { guard await pause(interval) else { return } }
                }
            case .trickle(let bytes, let interval):
                for byte in bytes {
                    guard await write([byte]) else { return }
                    guard await pause(interval) else { return }
                }
            case .silence:
                _ = await pause(timeLimit)
                return
            }
        }
    }

    func stop() async {
        let (tasks, connections) = state.withLockedValue { state in
            state.stopped = true
            return (Array(state.tasks.values), Array(state.connections.values))
        }
        for task in tasks { task.cancel() }
        for connection in connections { try? await connection.close() }
        for task in tasks { await task.value }
    }
}
