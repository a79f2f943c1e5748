import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import Testing
import TransferEngine

/// `TransferManager.Options.checkers` bounds the folders listed at once while a job walks its
/// trees, whatever `transfers` says (before, listings ran `transfers` at once).
@Suite("checkers: folders listed at once", .timeLimit(.minutes(1)))
struct CheckersTests {
    /// Holds every listing of a folder below the root until `target` of them are in flight at once
    /// (then lets every listing through), and records the most that were in flight.
    final class ListingGate: Sendable {
        private struct State {
            var inFlight = 0
            var most = 0
            var open = false
            var waiting: [CheckedContinuation<Void, Never>] = []
        }
        private let state = NIOLockedValueBox(State())
        let target: Int

        init(target: Int) { self.target = target }

        var most: Int { state.withLockedValue { $0.most } }
        var isOpen: Bool { state.withLockedValue { $0.open } }

        /// Waits until the target is reached, or the test is cancelled (its time limit: on code that
        /// never reaches the target, the plan then still ends, and the test fails).
        func enter() async {
            await withTaskCancellationHandler {
                await wait()
            } onCancel: {
                open()
            }
        }

        private func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let release: [CheckedContinuation<Void, Never>] = state.withLockedValue { state in
                    state.inFlight += 1
                    state.most = max(state.most, state.inFlight)
                    if !state.open, state.inFlight >= target { state.open = true }
                    if state.open {
                        defer { state.waiting = [] }
                        return state.waiting + [continuation]
                    }
                    state.waiting.append(continuation)
                    return []
                }
                for waiter in release { waiter.resume() }
            }
        }

        func leave() { state.withLockedValue { $0.inFlight -= 1 } }

        /// Lets everything through.
        func open() {
            let release = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in release { waiter.resume() }
        }
    }

    /// The source, its listings of folders below the root passing through `gate`.
    struct GatedSource: ForwardingProvider {
        let base: any StorageProvider
        let gate: ListingGate

        func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
            guard folder != .root else { return try await base.list(folder, page: page) }
            await gate.enter()
            defer { gate.leave() }
            return try await base.list(folder, page: page)
        }
    }

    /// Plans a copy of a tree of `folders` folders below the root (one file each) with `options`;
    /// returns the most source listings that were in flight at once.
    private static func mostListingsAtOnce(folders: Int, target: Int, options: TransferManager.Options) async throws -> Int {
        let source = try LocalTree()
        for index in 0..<folders { try source.write("folder-\(index)/file.txt", "\(index)") }
        let destination = try LocalTree()
        let gate = ListingGate(target: target)
        let plan = try await TransferManager(options: options).plan(
            .copy, from: TransferEndpoint(GatedSource(base: source.provider, gate: gate)), to: destination.endpoint)
        #expect(plan.actions.filter { $0.kind == .copyFile }.count == folders)
        #expect(gate.isOpen)
        return gate.most
    }

    @Test("checkers 3 with transfers 1: three folders are listed at once, never more")
    func moreCheckersThanTransfers() async throws {
        var options = TransferManager.Options.testing(transfers: 1)
        options.checkers = 3
        let most = try await Self.mostListingsAtOnce(folders: 12, target: 3, options: options)
        #expect(most == 3)
    }

    @Test("checkers 2 with transfers 8: at most two folders are listed at once")
    func fewerCheckersThanTransfers() async throws {
        var options = TransferManager.Options.testing(transfers: 8)
        options.checkers = 2
        let most = try await Self.mostListingsAtOnce(folders: 12, target: 2, options: options)
        #expect(most == 2)
    }

    @Test("checkers defaults to 8, as rclone's, and is at least 1")
    func defaults() {
        #expect(TransferManager.Options().checkers == 8)
        #expect(TransferManager.Options(checkers: 0).checkers == 1)
        #expect(TransferManager.Options(transfers: 2).checkers == 8)
    }
}
