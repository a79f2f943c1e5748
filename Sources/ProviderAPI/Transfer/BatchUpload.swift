import Foundation
import NIOConcurrencyHelpers

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
        let width = min(max(1, batch.maxConcurrent), max(1, entries.count))
        let queue = BatchQueue(count: entries.count, stopOnFirstError: batch.stopOnFirstError)
        // `width` lanes, each taking the next entry when its last one is done: a finished upload
        // goes on to the next without waking a coordinating task (one hand-off less per file).
        let results = await withTaskGroup(
            of: [(Int, Result<Item, ProviderError>)].self, returning: [Result<Item, ProviderError>?].self
        ) { group in
            for _ in 0..<width {
                group.addTask {
                    var done: [(Int, Result<Item, ProviderError>)] = []
                    while !Task.isCancelled, let index = queue.take() {
                        let result = await uploadResult(entries[index], options: options)
                        if case .failure = result { queue.failed() }
                        done.append((index, result))
                    }
                    return done
                }
            }
            var results = [Result<Item, ProviderError>?](repeating: nil, count: entries.count)
            for await lane in group {
                for (index, result) in lane { results[index] = result }
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

/// Hands out the indexes of a batch's entries in order to its lanes, until all are taken or
/// (with ``BatchOptions/stopOnFirstError``) an upload has failed.
private final class BatchQueue: Sendable {
    private struct State {
        var next = 0
        var stopped = false
    }

    private let count: Int
    private let stopOnFirstError: Bool
    private let state = NIOLockedValueBox(State())

    init(count: Int, stopOnFirstError: Bool) {
        self.count = count
        self.stopOnFirstError = stopOnFirstError
    }

    /// The next entry to upload, or `nil` when none is left or the batch stopped.
    func take() -> Int? {
        state.withLockedValue { state in
            guard !state.stopped, state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Notes a failed upload: with `stopOnFirstError`, no further entry is handed out.
    func failed() {
        guard stopOnFirstError else { return }
        state.withLockedValue { $0.stopped = true }
    }
}
