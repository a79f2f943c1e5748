import Foundation

/// Runs a page loop one page ahead: while the caller takes in a page, the next one is already on
/// its way, and while the caller waits for that one, the page after it is asked for too — when the
/// pages can be told in advance (page numbers, offsets).
///
/// The loop asks ``next()`` for pages in order. Each page says which request comes after it
/// (`following`); the first page is fetched alone, so a listing of one page sends one request.
/// From then on:
/// - the request a page points to is sent as soon as that page arrives (before the caller takes
///   it in);
/// - when the caller comes back for that next page, the page after it is sent too, if `predict`
///   can tell its request from the request before it and the page before that. At most one page
///   is ever asked for beyond the one the caller waits for, so at most about two pages are in
///   memory or on the wire at once.
///
/// A prefetched page is used only when the page before it points to exactly the request that was
/// predicted; otherwise (the server's count changed, the listing ended) it is cancelled and
/// dropped unseen, and the page the server points to is fetched instead, as a serial loop would.
/// So no page is skipped or seen twice, and an error of a prefetched page surfaces only where a
/// serial loop would have met it. Cancelling the task that calls ``next()`` cancels the requests
/// in flight; so does ``cancel()``, and letting go of the loop.
///
/// ```swift
/// let pages = PageLookahead(
///     first: 0,
///     fetch: { index in try await client.page(index) },
///     following: { page in page.hasMore ? page.index + 1 : nil },
///     predict: { index, previous in previous.pageCount.map { index + 1 < $0 ? index + 1 : nil } ?? index + 1 })
/// while let page = try await pages.next() { show(page) }
/// ```
///
/// A loop that cannot predict (`predict` always `nil`) runs exactly as a serial loop, one request
/// after the other.
package final class PageLookahead<Request: Hashable & Sendable, Page: Sendable> {
    private struct Fetch {
        var request: Request
        var task: Task<Page, any Error>
    }

    private let fetch: @Sendable (Request) async throws -> Page
    private let following: (Page) -> Request?
    private let predict: (Request, Page) -> Request?
    private var first: Request?
    private var pending: Fetch?
    private var ahead: Fetch?
    private var planned: Request?
    private var finished = false

    /// Creates a loop that starts at `first`.
    ///
    /// - Parameters:
    ///   - first: The request of the first page.
    ///   - fetch: Fetches one page; called off the caller's task, at most two at a time.
    ///   - following: The request the page points to next, or `nil` after the last page.
    ///   - predict: The request after `request`, told from `request` and `previous` (the page
    ///     before the one `request` asks for) before that page arrives; `nil` when it cannot be
    ///     told or there is surely no such page.
    package init(
        first: Request,
        fetch: @escaping @Sendable (Request) async throws -> Page,
        following: @escaping (Page) -> Request?,
        predict: @escaping (_ request: Request, _ previous: Page) -> Request?
    ) {
        self.first = first
        self.fetch = fetch
        self.following = following
        self.predict = predict
    }

    deinit {
        pending?.task.cancel()
        ahead?.task.cancel()
    }

    /// The number of page requests in flight beyond the one the caller waits for or takes in:
    /// 0 or 1.
    package var prefetching: Int { ahead == nil ? 0 : 1 }

    /// The next page, or `nil` after the last.
    ///
    /// - Throws: What fetching the page threw; when the caller's task is cancelled, what the
    ///   cancelled fetch threw, or `CancellationError`. After an error the loop is over.
    package func next() async throws -> Page? {
        guard !finished else { return nil }
        if let first {
            self.first = nil
            pending = start(first)
        } else if ahead == nil, let planned {
            self.planned = nil
            ahead = start(planned)
        }
        guard let current = pending else {
            finished = true
            return nil
        }
        pending = nil
        let page: Page
        do {
            let awaited = current.task
            let beyond = ahead?.task
            page = try await withTaskCancellationHandler {
                try await awaited.value
            } onCancel: {
                awaited.cancel()
                beyond?.cancel()
            }
            try Task.checkCancellation()
        } catch {
            cancel()
            throw error
        }
        guard let next = following(page) else {
            cancel()
            return page
        }
        if let ahead, ahead.request == next {
            pending = ahead
        } else {
            // Not the page the server points to (or none was asked for): fetch that one instead.
            ahead?.task.cancel()
            pending = start(next)
        }
        ahead = nil
        planned = predict(next, page)
        return page
    }

    /// Ends the loop and cancels the requests in flight; ``next()`` then returns `nil`.
    package func cancel() {
        finished = true
        first = nil
        planned = nil
        pending?.task.cancel()
        ahead?.task.cancel()
        pending = nil
        ahead = nil
    }

    private func start(_ request: Request) -> Fetch {
        let fetch = self.fetch
        return Fetch(request: request, task: Task { try await fetch(request) })
    }
}
