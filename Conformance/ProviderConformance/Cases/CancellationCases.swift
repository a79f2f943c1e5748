import Foundation
import ProviderAPI
import ProviderKit

/// Cancelling a transfer in the middle stops it cleanly.
enum CancellationCases {
    static var all: [ConformanceCase] { [download, uploadNew, uploadOverwrite] }

    static let download = ConformanceCase(
        "cancellation.download", summary: "Cancelling a download after 1 MiB throws .cancelled and leaves no local file"
    ) { context in
        let size = Int64(max(context.options.mediumFileSize, 4 << 20))
        let source = try context.makeRandomFile(named: "cancel.source", size: size)
        let uploaded = try await context.provider.upload(try FileSource(url: source.url), to: context.folder, name: "cancel.bin", options: UploadOptions())
        let local = context.localURL("cancel.bin")
        let sink = FileSink(url: local)
        let cancel = CancelSwitch()
        let progress: ProgressHandler = { progress in if progress.completed > 1 << 20 { cancel.trip() } }
        let provider = context.provider
        let task = cancel.start { try await provider.download(uploaded.path, to: sink, options: DownloadOptions(progress: progress)) }
        let error = await context.outcome(of: task)
        try context.expect(cancel.isTripped, "no progress past 1 MiB was reported, so the download could not be cancelled in the middle")
        try context.expectCancelled(error, "the cancelled download")
        try context.expect(!FileManager.default.fileExists(atPath: local.path), "the cancelled download left a file under the final name")
        try context.expect(!FileManager.default.fileExists(atPath: sink.partialURL.path), "the cancelled, non-resumable download left its partial file")
    }

    static let uploadNew = ConformanceCase(
        "cancellation.uploadNew", summary: "Cancelling an upload in the middle throws .cancelled and creates no file"
    ) { context in
        try await cancelUpload(named: "new.bin", context: context)
        try await context.expectMissing(try context.path("new.bin"), "after the cancelled upload")
        try await Task.sleep(for: .seconds(1))
        try await context.expectMissing(try context.path("new.bin"), "a second after the cancelled upload")
    }

    static let uploadOverwrite = ConformanceCase(
        "cancellation.uploadOverwrite", summary: "Cancelling an overwriting upload in the middle keeps the old content"
    ) { context in
        let old = try await context.upload(text: "the old content", as: "kept.bin")
        try await cancelUpload(named: "kept.bin", context: context)
        try await context.expectContent(old.path, Array("the old content".utf8), "after the cancelled overwrite")
        try await Task.sleep(for: .seconds(1))
        try await context.expectContent(old.path, Array("the old content".utf8), "a second after the cancelled overwrite")
    }

    /// Uploads from a source that stalls after 1 MiB of a declared 8 MiB, cancels, and expects `.cancelled`.
    private static func cancelUpload(named name: String, context: ConformanceContext) async throws {
        let source = StallingSource(chunk: RandomBytes.make(256 << 10), chunksBeforeStall: 4, length: 8 << 20)
        let provider = context.provider
        let folder = context.folder
        let task = Task {
            try await provider.upload(source, to: folder, name: name, options: UploadOptions(conflict: .overwrite))
        }
        let stalled = await source.control.waitUntilStalled(limit: .seconds(30))
        task.cancel()
        // Give the provider time to notice the cancellation itself before the source gives up.
        let release = Task {
            try await Task.sleep(for: .seconds(2))
            source.control.release()
        }
        let error = await context.outcome(of: task)
        release.cancel()
        try context.expect(stalled, "the provider read \(source.control.delivered) bytes and never asked for more within 30 s")
        try context.expectCancelled(error, "the cancelled upload")
    }
}

extension ConformanceContext {
    /// Waits for `task` and returns the error it threw, or `nil` if it succeeded.
    func outcome<Success: Sendable>(of task: Task<Success, any Error>) async -> (any Error)? {
        do {
            _ = try await task.value
            return nil
        } catch {
            return error
        }
    }

    /// Fails unless `error` is a ``ProviderError`` with code `.cancelled`.
    func expectCancelled(_ error: (any Error)?, _ what: String) throws {
        guard let error else { throw ConformanceFailure("\(what) completed instead of throwing .cancelled") }
        guard let providerError = error as? ProviderError else {
            throw ConformanceFailure("\(what) threw \(type(of: error)) \(error), not ProviderError .cancelled")
        }
        try expect(providerError.code == .cancelled, "\(what) threw \(providerError), not .cancelled")
    }
}
