import Logging
import NIOConcurrencyHelpers

/// The background refreshes of a ``CachedProvider``: what a stale-while-revalidate answer
/// starts after answering from the cache.
///
/// At most one refresh runs per key (an item's or a listing's path) at a time: readers that find
/// the same stale entry while it is being refreshed start nothing more. A failed refresh only
/// leaves the cache as it was. The refreshes can be awaited (``waitForAll()``, for tests and an
/// orderly shutdown) and cancelled (``close()``, when the provider is done with).
package final class CacheRefresher: Sendable {
    private struct State {
        /// By the key's exact bytes: the listings of `café` in NFC and in NFD are two refreshes.
        var running: [PathKey: Task<Void, Never>] = [:]
        var started = 0
        var closed = false
    }

    private let state = NIOLockedValueBox(State())
    private let logger: Logger

    /// A refresher logging failed refreshes to `logger` (at debug level).
    package init(logger: Logger = Logger(label: "strata.cache", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.logger = logger
    }

    /// Starts `work` as the refresh of `key`, unless one of `key` is running or the refresher is closed.
    ///
    /// - Returns: whether a refresh was started.
    @discardableResult
    package func refresh(_ key: String, _ work: @escaping @Sendable () async throws -> Void) -> Bool {
        let logger = self.logger
        return state.withLockedValue { state in
            guard !state.closed, state.running[PathKey(key)] == nil else { return false }
            let task = Task { [self] in
                // The entry is removed by the refresh itself: it cannot run before it is set,
                // since setting it holds the lock this takes.
                defer { finished(key) }
                do {
                    try await work()
                } catch {
                    logger.debug("background refresh failed", metadata: ["key": "\(key)", "error": "\(error)"])
                }
            }
            state.running[PathKey(key)] = task
            state.started += 1
            return true
        }
    }

    private func finished(_ key: String) {
        _ = state.withLockedValue { $0.running.removeValue(forKey: PathKey(key)) }
    }

    /// The keys being refreshed now, in byte order (a list: a `Set<String>` would make the NFC and
    /// NFD spellings of one path one key).
    package var runningKeys: [String] { state.withLockedValue { $0.running.keys.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }.map(\.text) } }

    /// How many refreshes were started so far.
    package var startedCount: Int { state.withLockedValue { $0.started } }

    /// Whether ``close()`` was called: no refresh starts any more.
    package var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Waits until the refresh of `key`, if one runs, has ended.
    package func wait(for key: String) async {
        await state.withLockedValue { $0.running[PathKey(key)] }?.value
    }

    /// Waits until no refresh runs, those started meanwhile included.
    package func waitForAll() async {
        while true {
            let tasks = state.withLockedValue { Array($0.running.values) }
            if tasks.isEmpty { return }
            for task in tasks { await task.value }
        }
    }

    /// Cancels the running refreshes and waits for them to end; no refresh starts afterwards.
    ///
    /// A cancelled refresh stops at its next cancellation point (a request, a wait) and
    /// leaves the cache as it was where it had not written yet.
    package func close() async {
        let tasks = state.withLockedValue { state -> [Task<Void, Never>] in
            state.closed = true
            return Array(state.running.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}
