import NIOConcurrencyHelpers

/// Pages of a cursor listing fetched ahead, for the call that will ask for them.
///
/// A caller that lists by cursor (`strata ls`, an app scrolling a folder) asks for page n + 1
/// only once page n is returned: decoded, mapped and checked. When the server said, before
/// that work, that page n + 1 exists (a paging member read from a skim of the body), an adapter
/// can ``start(_:fetch:)`` it at once and hand it to the call for that cursor with
/// ``take(_:)``: the request is on its way while page n is decoded, as in a listing without a
/// limit, with no guess about pages the server has not named.
///
/// ```swift
/// let page = await prefetch.take(key) ?? (try await fetchPage(key))
/// if page.serverSaysMore { prefetch.start(key.next) { try await fetchPage(key.next) } }
/// ```
///
/// Bounds: at most `capacity` pages are kept (the oldest is cancelled to make room); a page
/// is handed out once and only within `maximumAge` of its fetch's start (a caller that comes
/// back later gets `nil` and fetches a fresh one); a fetch that failed gives `nil` too, so the
/// caller's own request meets the error, with its retries. Every fetch is cancelled when the
/// prefetch is released or ``cancelAll()`` is called.
package final class PagePrefetch<Key: Hashable & Sendable, Page: Sendable>: Sendable {
    private struct Entry {
        var task: Task<Page, any Error>
        var started: ContinuousClock.Instant
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in the order their fetches started, oldest first.
        var order: [Key] = []
    }

    private let state = NIOLockedValueBox(State())
    /// The most pages fetched ahead and not yet taken.
    package let capacity: Int
    /// How long after its fetch started a page may still be handed out.
    package let maximumAge: Duration

    /// Creates an empty prefetch keeping up to `capacity` pages (at least one), each for
    /// `maximumAge` after its fetch starts.
    package init(capacity: Int = 2, maximumAge: Duration = .seconds(10)) {
        self.capacity = max(1, capacity)
        self.maximumAge = maximumAge
    }

    deinit {
        cancelAll()
    }

    /// The keys whose pages are being fetched or wait to be taken, oldest first.
    package var pending: [Key] { state.withLockedValue { $0.order } }

    /// Starts fetching the page for `key`, unless it is already being fetched or waits to be taken.
    package func start(_ key: Key, fetch: @escaping @Sendable () async throws -> Page) {
        let evicted = state.withLockedValue { state -> Task<Page, any Error>? in
            guard state.entries[key] == nil else { return nil }
            var evicted: Task<Page, any Error>?
            if state.order.count >= capacity {
                let oldest = state.order.removeFirst()
                evicted = state.entries.removeValue(forKey: oldest)?.task
            }
            state.entries[key] = Entry(task: Task { try await fetch() }, started: .now)
            state.order.append(key)
            return evicted
        }
        evicted?.cancel()
    }

    /// The page fetched ahead for `key`, once it has arrived, or `nil`: when none was started,
    /// when it started more than ``maximumAge`` ago, or when its fetch failed or was cancelled.
    /// The page is handed out once; cancelling the caller cancels its fetch.
    package func take(_ key: Key) async -> Page? {
        let entry = state.withLockedValue { state -> Entry? in
            guard let entry = state.entries.removeValue(forKey: key) else { return nil }
            state.order.removeAll { $0 == key }
            return entry
        }
        guard let entry else { return nil }
        guard entry.started.duration(to: .now) <= maximumAge else {
            entry.task.cancel()
            return nil
        }
        let task = entry.task
        return try? await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Cancels every fetch and forgets every page.
    package func cancelAll() {
        let tasks = state.withLockedValue { state -> [Task<Page, any Error>] in
            let tasks = state.entries.values.map(\.task)
            state = State()
            return tasks
        }
        for task in tasks { task.cancel() }
    }
}
