import Foundation

extension StorageProvider {
    /// Every child of `folder`, fetching all pages; `fields` says which optional fields are needed.
    ///
    /// - Throws: ``ProviderError/Code/invalidResponse`` when the pages repeat, bring nothing new or
    ///   pass ``pageLimits`` (see ``PageGuard``).
    public func listAll(_ folder: ItemPath, pageSize: Int? = nil, fields: ItemFields = .all) async throws -> [Item] {
        var items: [Item] = []
        var request = PageRequest(limit: pageSize, fields: fields)
        var pages = PageGuard.listing(of: folder, limits: pageLimits)
        while true {
            let page = try await list(folder, page: request)
            try pages.admit(page)
            // A listing of one page is returned as it came, without copying every item.
            guard let next = page.next else { return items.isEmpty ? page.items : items + page.items }
            items += page.items
            request.cursor = next
        }
    }

    /// The children of `folder` as an async sequence, one page fetched at a time.
    ///
    /// The sequence ends with ``ProviderError/Code/invalidResponse`` when the pages repeat, bring
    /// nothing new or pass ``pageLimits`` (see ``PageGuard``).
    public func children(of folder: ItemPath, pageSize: Int? = nil) -> AsyncThrowingStream<Item, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var request = PageRequest(limit: pageSize)
                    var pages = PageGuard.listing(of: folder, limits: pageLimits)
                    while true {
                        let page = try await list(folder, page: request)
                        try pages.admit(page)
                        for item in page.items { continuation.yield(item) }
                        guard let next = page.next else { break }
                        request.cursor = next
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The item at `path`, or `nil` if there is none.
    public func itemIfExists(at path: ItemPath) async throws -> Item? {
        do { return try await item(at: path) } catch let error as ProviderError where error.code == .notFound { return nil }
    }

    /// Downloads the file at `path` to the local file `url` (no partial file is ever left there).
    @discardableResult
    public func download(_ path: ItemPath, toFile url: URL, options: DownloadOptions = DownloadOptions()) async throws -> DownloadResult {
        try await download(path, to: FileSink(url: url, resumable: options.resume), options: options)
    }

    /// Downloads a small file into memory.
    public func data(at path: ItemPath, limit: Int = 64 << 20) async throws -> Data {
        let sink = MemorySink(limit: limit)
        _ = try await download(path, to: sink, options: DownloadOptions())
        return await sink.data
    }

    /// Uploads a local file to `path`.
    @discardableResult
    public func upload(file url: URL, to path: ItemPath, options: UploadOptions = UploadOptions()) async throws -> Item {
        try await upload(FileSource(url: url), to: path.parent, name: path.name, options: options)
    }

    /// Uploads bytes to `path`.
    @discardableResult
    public func upload(data: Data, to path: ItemPath, options: UploadOptions = UploadOptions()) async throws -> Item {
        try await upload(DataSource(data), to: path.parent, name: path.name, options: options)
    }
}
