import Foundation

/// One file of a batch upload: where its bytes come from and where they go.
public struct BatchUploadEntry: Sendable {
    /// The bytes.
    public var source: any UploadSource
    /// The folder to upload into.
    public var folder: ItemPath
    /// The name in that folder.
    public var name: String

    /// Creates an entry.
    public init(source: any UploadSource, folder: ItemPath, name: String) {
        self.source = source
        self.folder = folder
        self.name = name
    }
}

/// How a batch of transfers runs.
public struct BatchOptions: Sendable {
    /// How many transfers run at once (rclone's `--transfers`; at least 1).
    public var maxConcurrent: Int
    /// Whether the first failure cancels the transfers not yet finished.
    public var stopOnFirstError: Bool

    /// Creates options; four transfers at once by default, as rclone.
    public init(maxConcurrent: Int = 4, stopOnFirstError: Bool = false) {
        self.maxConcurrent = maxConcurrent
        self.stopOnFirstError = stopOnFirstError
    }
}

extension StorageProvider {
    /// Uploads many files, up to ``BatchOptions/maxConcurrent`` at a time, over the
    /// provider's pooled connections.
    ///
    /// Every entry gets a result, in the order given: the uploaded item or the
    /// ``ProviderError`` that stopped it. With ``BatchOptions/stopOnFirstError``, entries
    /// not yet started after a failure end as ``ProviderError/Code/cancelled``.
    /// Cancelling the calling task cancels the transfers under way.
    ///
    /// ```swift
    /// let entries = try files.map { BatchUploadEntry(source: try FileSource(url: $0), folder: "/in", name: $0.lastPathComponent) }
    /// let results = await dav.upload(entries, options: UploadOptions(conflict: .overwrite))
    /// let failed = results.filter { if case .failure = $0 { true } else { false } }
    /// ```
    public func upload(
        _ entries: [BatchUploadEntry], options: UploadOptions = UploadOptions(), batch: BatchOptions = BatchOptions()
    ) async -> [Result<Item, ProviderError>] {
        let width = max(1, batch.maxConcurrent)
        let results = await withTaskGroup(
            of: (Int, Result<Item, ProviderError>).self, returning: [Result<Item, ProviderError>?].self
        ) { group in
            var results = [Result<Item, ProviderError>?](repeating: nil, count: entries.count)
            var next = 0
            var stopped = false
            while next < entries.count, next < width {
                let (index, entry) = (next, entries[next])
                group.addTask { (index, await uploadResult(entry, options: options)) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if case .failure = result, batch.stopOnFirstError { stopped = true }
                if !stopped, !Task.isCancelled, next < entries.count {
                    let (index, entry) = (next, entries[next])
                    group.addTask { (index, await uploadResult(entry, options: options)) }
                    next += 1
                }
            }
            return results
        }
        return results.map { $0 ?? .failure(ProviderError(.cancelled, "not started: the batch stopped")) }
    }

    /// One entry's upload, its failure as a value.
    private func uploadResult(_ entry: BatchUploadEntry, options: UploadOptions) async -> Result<Item, ProviderError> {
        do {
            return .success(try await upload(entry.source, to: entry.folder, name: entry.name, options: options))
        } catch {
            return .failure(ProviderError.wrap(error))
        }
    }
}
