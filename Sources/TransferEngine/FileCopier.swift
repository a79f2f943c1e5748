import Foundation
import Logging
import NIOConcurrencyHelpers
import ProviderAPI

/// Copies one file from the source to the destination through a ``BytePipe``: the download and
/// the upload run at once, and memory holds at most the pipe's capacity. A retryable failure
/// (network, server, rate limit, integrity) starts the file again, as the options' retry policy allows;
/// any other (a local `io` error, an `unknown` one) ends the file's copy at once.
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
        if case .failure(let error) = await send(action) { return error }
        return nil
    }

    /// Copies the file of `action`; returns the destination's item as its upload answered it, or
    /// the error that stopped it after the last attempt.
    func send(_ action: TransferAction) async -> Result<Item, ProviderError> {
        // Bytes already counted in the job's progress: a retry does not count them again.
        let counted = NIOLockedValueBox<Int64>(0)
        var attempt = 1
        while true {
            observer?(.started(action, attempt: attempt))
            do {
                return .success(try await copyOnce(action, counted: counted))
            } catch {
                var failure = ProviderError.wrap(error)
                if Task.isCancelled || failure.code == .cancelled { return .failure(ProviderError(.cancelled, "cancelled")) }
                if failure.code == .alreadyExists {
                    // After a failed attempt, what holds the name may be that attempt's file, stored
                    // before its answer was lost: taken as done when it has the source's size.
                    if attempt > 1, let landed = await landed(action) { return .success(landed) }
                    failure = ProviderError(
                        .conflict,
                        "\(action.destination) is held on the destination by an item its listing did not show (a name it folds "
                            + "with another, or one made meanwhile): not overwritten")
                }
                guard attempt < options.fileRetry.maxAttempts, Self.retryable.contains(failure.code) else { return .failure(failure) }
                let delay = failure.retryAfter ?? options.fileRetry.delay(forRetry: attempt)
                if delay > options.fileRetry.maxRetryAfter { return .failure(failure) }
                options.logger.debug(
                    "sending the file again",
                    metadata: ["file": "\(action.relativePath)", "attempt": "\(attempt)", "delay": "\(delay)", "error": "\(failure)"])
                do { try await Task.sleep(for: delay) } catch { return .failure(ProviderError(.cancelled, "cancelled")) }
                attempt += 1
            }
        }
    }

    /// The destination's file at the name of `action` when it has the source's size: what an
    /// earlier attempt stored; `nil` otherwise.
    private func landed(_ action: TransferAction) async -> Item? {
        guard let item = try? await destination.provider.item(at: action.destination), item.kind == .file,
            item.name.utf8.elementsEqual(action.destination.name.utf8), let size = action.size, item.size == size
        else { return nil }
        return item
    }

    private func copyOnce(_ action: TransferAction, counted: NIOLockedValueBox<Int64>) async throws -> Item {
        guard let sourcePath = action.source, !action.destination.isRoot else {
            throw ProviderError(.invalidArgument, "\(action.relativePath) has no source or no destination name")
        }
        if let size = action.size, size >= 0, size < Self.wholeFileLimit {
            return try await copyWhole(action, from: sourcePath, size: size, counted: counted)
        }
        let pipe = BytePipe(capacity: options.pipeCapacity, expectedLength: action.size) { [self] read in
            progress(action, completed: read, counted: counted)
        }
        var uploadOptions = self.uploadOptions(action)
        uploadOptions.resumeKey = resumeKey(action, source: sourcePath)
        let settings = uploadOptions
        let from = source.provider
        // A file of known size (from ``wholeFileLimit`` up, as the smaller ones went whole) whose
        // source serves ranges waits for the upload to say where the content starts: a destination
        // that resumes uploads (Nuxeo batches, Nextcloud chunks, Pydio parts) and holds part of it
        // from an earlier attempt takes only the rest.
        let start: PipeStart? =
            from.capabilities.supports(.rangeDownload) && (action.size ?? 0) >= Self.wholeFileLimit ? PipeStart() : nil
        let upload = PipeSource(pipe: pipe, length: action.size, start: start)
        let to = destination.provider
        let target = action.destination
        let size = action.size
        let uploaded = try await withThrowingTaskGroup(of: Item?.self) { group in
            group.addTask {
                var options = DownloadOptions()
                if let start {
                    guard let offset = await start.offset() else { return nil }
                    try await pipe.start(at: offset)
                    if offset > 0 {
                        if offset == size {
                            try await pipe.finish()
                            return nil
                        }
                        options.range = .from(offset)
                    }
                }
                do {
                    _ = try await from.download(sourcePath, to: PipeSink(pipe: pipe), options: options)
                    return nil
                } catch {
                    throw await pipe.fail(ProviderError.wrap(error))
                }
            }
            group.addTask {
                do {
                    let item = try await to.upload(upload, to: target.parent, name: target.name, options: settings)
                    // An upload that needed no byte of the source (the destination held them all) downloads nothing.
                    start?.resolve(nil)
                    await pipe.closeReader()
                    return item
                } catch {
                    start?.resolve(nil)
                    throw await pipe.fail(ProviderError.wrap(error))
                }
            }
            var uploaded: Item?
            for try await item in group { uploaded = uploaded ?? item }
            return uploaded
        }
        // An upload that ended without taking every byte did not store the file.
        let (written, read) = (await pipe.written, await pipe.read)
        if read != written {
            throw ProviderError(.integrity, "the destination took \(read) of the \(written) bytes of \(action.relativePath)")
        }
        guard let uploaded else { throw ProviderError(.server, "the upload of \(action.relativePath) ended without an answer") }
        return uploaded
    }

    /// How the file of `action` is uploaded: with the source's modified time where the
    /// destination can set it, not read back; over the destination's file where the plan saw one
    /// (`differs`), else only where nothing is (`conflict: .fail`). A name the listing did not
    /// show but the destination holds (a folder below its root that folds case, a file made
    /// meanwhile) is a conflict, never overwritten: `A.txt` and `a.txt` into a case-folding folder
    /// were "copied 2" with one left.
    func uploadOptions(_ action: TransferAction) -> UploadOptions {
        var options = UploadOptions(conflict: action.reason == .differs ? .overwrite : .fail, readBack: false)
        if destination.provider.capabilities.supports(.setModifiedTime) { options.modified = action.modified }
        return options
    }

    /// Reports that `completed` bytes of `action` are stored, and adds to the job's progress the
    /// bytes not counted before (`counted`: what earlier attempts of the file already added).
    func progress(_ action: TransferAction, completed: Int64, counted: NIOLockedValueBox<Int64>) {
        observer?(.fileProgress(action, TransferProgress(completed: completed, expected: action.size)))
        let more = counted.withLockedValue { counted -> Int64 in
            let more = max(0, completed - counted)
            counted += more
            return more
        }
        counter.add(bytes: more)
    }

    /// The upload's resume key: the source's account and path, and the size, etag and modified
    /// time it was listed with, so that a destination resumes a cut upload only of the same content.
    func resumeKey(_ action: TransferAction, source path: ItemPath) -> String {
        let modified = action.modified.map { String(format: "%.3f", $0.timeIntervalSince1970) } ?? "-"
        return ["strata-copy", source.provider.account.description, path.description, action.size.map(String.init) ?? "-",
                action.sourceETag.map { String(ETag.opaque($0)) } ?? "-", modified].joined(separator: "\n")
    }
}
