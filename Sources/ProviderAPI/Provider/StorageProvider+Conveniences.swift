import Foundation

extension StorageProvider {
    /// Every child of `folder`, fetching all pages; `fields` says which optional fields are needed.
    ///
    /// The pages are fetched one ahead where the provider can tell them in advance
    /// (``pageRequest(after:in:previous:)``).
    ///
    /// The listing may be incomplete (a cached or partial one, see ``listing(_:pageSize:fields:)``);
    /// nothing may be deleted on its strength alone.
    ///
    /// - Throws: ``ProviderError/Code/invalidResponse`` when the pages repeat, bring nothing new,
    ///   pass ``pageLimits`` or contradict the count they declare (see `PageGuard`).
    public func listAll(_ folder: ItemPath, pageSize: Int? = nil, fields: ItemFields = .all) async throws -> [Item] {
        try await listing(folder, pageSize: pageSize, fields: fields).items
    }

    /// Every child of `folder`, fetching all pages as ``listAll(_:pageSize:fields:)`` does, and
    /// what the listing knows of its completeness: the pages' own, joined, once the count the
    /// first page declared (``ItemPage/totalCount``) is found to match the entries.
    ///
    /// - Throws: ``ProviderError/Code/invalidResponse`` when the pages repeat, bring nothing new,
    ///   pass ``pageLimits`` or contradict the count they declare (see `PageGuard`).
    public func listing(_ folder: ItemPath, pageSize: Int? = nil, fields: ItemFields = .all) async throws -> FolderListing {
        var items: [Item] = []
        var single: [Item]?
        var count = 0
        var skipped: [SkippedEntry] = []
        let completeness = try await forEachPage(of: folder, request: PageRequest(limit: pageSize, fields: fields)) { page in
            count += 1
            skipped += page.skipped
            // A listing of one page is returned as it came, without copying every item.
            if count == 1, page.next == nil {
                single = page.items
            } else {
                items += page.items
            }
        }
        return FolderListing(items: single ?? items, completeness: completeness, skipped: skipped)
    }

    /// The children of `folder` as an async sequence, one page fetched at a time (one ahead
    /// where the provider can tell the next page in advance, see ``pageRequest(after:in:previous:)``).
    ///
    /// The sequence ends with ``ProviderError/Code/invalidResponse`` when the pages repeat, bring
    /// nothing new or pass ``pageLimits`` (see `PageGuard`).
    public func children(of folder: ItemPath, pageSize: Int? = nil) -> AsyncThrowingStream<Item, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await forEachPage(of: folder, request: PageRequest(limit: pageSize)) { page in
                        for item in page.items { continuation.yield(item) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Calls `body` with every page of the listing of `folder`, in order, from the page `request`
    /// asks for; each page is checked by a `PageGuard` under ``pageLimits`` before `body` sees it.
    ///
    /// While `body` takes in a page, the next one is already being fetched; where the provider
    /// can tell the page after that in advance (``pageRequest(after:in:previous:)``), it is asked
    /// for while the loop waits for the next (`PageLookahead`): never more than one page beyond.
    ///
    /// - Returns: what the listing knows of its completeness (`PageGuard.completeness()`); from a
    ///   request with a cursor (a listing taken up midway), only the pages' own, joined.
    /// - Throws: What ``list(_:page:)`` or `body` threw, where a serial loop would have met it;
    ///   ``ProviderError/Code/invalidResponse`` when the pages repeat, bring nothing new, pass
    ///   ``pageLimits`` or contradict the count they declare.
    @discardableResult
    public func forEachPage(
        of folder: ItemPath, request: PageRequest, _ body: (ItemPage) throws -> Void
    ) async throws -> ListingCompleteness {
        var guardian = PageGuard.listing(of: folder, limits: pageLimits)
        let pages = PageLookahead<PageRequest, ItemPage>(
            first: request,
            fetch: { request in try await self.list(folder, page: request) },
            following: { page in
                page.next.map { next in
                    var following = request
                    following.cursor = next
                    return following
                }
            },
            predict: { request, previous in self.pageRequest(after: request, in: folder, previous: previous) })
        defer { pages.cancel() }
        while let page = try await pages.next() {
            try guardian.admit(page)
            try body(page)
        }
        return request.cursor == nil ? try guardian.completeness() : guardian.pagesCompleteness
    }

    /// The item at `path`, or `nil` if there is none.
    public func itemIfExists(at path: ItemPath) async throws -> Item? {
        do { return try await item(at: path) } catch let error as ProviderError where error.code == .notFound { return nil }
    }

    /// Downloads a small file into memory.
    public func data(at path: ItemPath, limit: Int = 64 << 20) async throws -> Data {
        let sink = MemorySink(limit: limit)
        _ = try await download(path, to: sink, options: DownloadOptions())
        return await sink.data
    }

    /// Uploads bytes to `path`.
    @discardableResult
    public func upload(data: Data, to path: ItemPath, options: UploadOptions = UploadOptions()) async throws -> Item {
        try await upload(DataSource(data), to: path.parent, name: path.name, options: options)
    }
}
