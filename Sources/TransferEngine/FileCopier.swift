import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Copies one file from the source to the destination through a ``BytePipe``: the download and
/// the upload run at once, and memory holds at most the pipe's capacity. A retryable failure
/// (network, server, rate limit, integrity) starts the file again, as the options' retry policy allows.
struct FileCopier: Sendable {
    let source: TransferEndpoint
    let destination: TransferEndpoint
    let options: TransferManager.Options
    let observer: TransferObserver?
    let counter: JobCounter

    /// The codes after which a file is sent again from its start.
    static let retryable: Set<ProviderError.Code> = [.network, .server, .rateLimited, .integrity]

    /// Copies the file of `action`; returns the error that stopped it, after the last attempt.
    func copy(_ action: TransferAction) async -> ProviderError? {
        // Bytes already counted in the job's progress: a retry does not count them again.
        let counted = NIOLockedValueBox<Int64>(0)
        var attempt = 1
        while true {
            observer?(.started(action, attempt: attempt))
            do {
                try await copyOnce(action, counted: counted)
                return nil
            } catch {
                let failure = ProviderError.wrap(error)
                if Task.isCancelled || failure.code == .cancelled { return ProviderError(.cancelled, "cancelled") }
                guard attempt < options.fileRetry.maxAttempts, Self.retryable.contains(failure.code) else { return failure }
                let delay = failure.retryAfter ?? options.fileRetry.delay(forRetry: attempt)
                if delay > options.fileRetry.maxRetryAfter { return failure }
                do { try await Task.sleep(for: delay) } catch { return ProviderError(.cancelled, "cancelled") }
                attempt += 1
            }
        }
    }

    private func copyOnce(_ action: TransferAction, counted: NIOLockedValueBox<Int64>) async throws {
        guard let sourcePath = action.source, !action.destination.isRoot else {
            throw ProviderError(.invalidArgument, "\(action.relativePath) has no source or no destination name")
        }
        if let size = action.size, size >= 0, size < Self.wholeFileLimit {
            try await copyWhole(action, from: sourcePath, size: size, counted: counted)
            return
        }
        let observer = self.observer
        let counter = self.counter
        let pipe = BytePipe(capacity: options.pipeCapacity, expectedLength: action.size) { read in
            observer?(.fileProgress(action, TransferProgress(completed: read, expected: action.size)))
            let more = counted.withLockedValue { counted -> Int64 in
                let more = max(0, read - counted)
                counted += more
                return more
            }
            counter.add(bytes: more)
        }
        var uploadOptions = UploadOptions(conflict: .overwrite, readBack: false)
        if destination.provider.capabilities.supports(.setModifiedTime) { uploadOptions.modified = action.modified }
        let settings = uploadOptions
        let upload = PipeSource(pipe: pipe, length: action.size)
        let from = source.provider
        let to = destination.provider
        let target = action.destination
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    _ = try await from.download(sourcePath, to: PipeSink(pipe: pipe), options: DownloadOptions())
                } catch {
                    throw await pipe.fail(ProviderError.wrap(error))
                }
            }
            group.addTask {
                do {
                    _ = try await to.upload(upload, to: target.parent, name: target.name, options: settings)
                    await pipe.closeReader()
                } catch {
                    throw await pipe.fail(ProviderError.wrap(error))
                }
            }
            try await group.waitForAll()
        }
        // An upload that ended without taking every byte did not store the file.
        let (written, read) = (await pipe.written, await pipe.read)
        if read != written {
            throw ProviderError(.integrity, "the destination took \(read) of the \(written) bytes of \(action.relativePath)")
        }
    }
}
