import Foundation
import ProviderAPI
import ProviderKit

/// A download cut in the middle continues where it stopped.
///
/// `resume.afterDrop` cuts the download in the transport (HTTP adapters; others skip it with
/// ``SkipReason/noTransport``); `resume.afterSinkFailure` cuts it in the sink, so it tests
/// every adapter, HTTP-based or not.
enum ResumeCases {
    static var all: [ConformanceCase] { [afterDrop, afterSinkFailure] }

    static let afterDrop = ConformanceCase(
        "resume.afterDrop", requires: .resumeDownload,
        summary: "A download whose body is cut keeps a partial file, and a resumed download fetches only the rest"
    ) { context in
        let size: Int64 = 4 << 20
        let cut: Int64 = (1 << 20) + 123
        let source = try context.makeRandomFile(named: "resume.source", size: size)
        let uploaded = try await context.provider.upload(try FileSource(url: source.url), to: context.folder, name: "resume.bin", options: UploadOptions())

        let (faulty, faults) = try await context.makeFaultInjectingProvider()
        // Any method: the cut waits for the first answer longer than `cut` bytes, the download's,
        // whether or not the server declares its length.
        faults.inject { _ in .dropBody(after: cut) }
        let local = context.localURL("resume.bin")
        let sink = FileSink(url: local, resumable: true)
        let before = faults.appliedFaults
        // No automatic resume: this case is about the partial file a failed download keeps.
        let outcome = await TransportChecks.outcome {
            try await faulty.download(uploaded.path, to: sink, options: DownloadOptions(maxResumes: 0))
        }
        try TransportChecks.expectUsed(faults, context: context)
        try TransportChecks.expectApplied(faults, since: before, "the cut of the download after \(cut) bytes")
        try await context.expectError(.network, "a download whose body is cut after \(cut) bytes") { try outcome.get() }
        try await expectResumes(context, uploaded.path, into: sink, cut: cut, of: source, "the cut download")
    }

    static let afterSinkFailure = ConformanceCase(
        "resume.afterSinkFailure", requires: .resumeDownload,
        summary: """
            A download whose sink fails part-way throws a ProviderError, fails the sink and keeps the partial file; \
            a resumed download fetches only the rest
            """
    ) { context in
        let size: Int64 = 3 << 20
        let cut: Int64 = (1 << 20) + 321
        let source = try context.makeRandomFile(named: "sinkdrop.source", size: size)
        let uploaded = try await context.provider.upload(
            try FileSource(url: source.url), to: context.folder, name: "sinkdrop.bin", options: UploadOptions())

        let local = context.localURL("sinkdrop.bin")
        let file = FileSink(url: local, resumable: true)
        let sink = DroppingSink(file, after: cut)
        let outcome = await TransportChecks.outcome {
            try await context.provider.download(uploaded.path, to: sink, options: DownloadOptions())
        }
        try context.expect(await sink.dropped, "the download ended before the sink had taken \(cut) of \(size) bytes")
        switch outcome {
        case .success:
            throw ConformanceFailure("the download succeeded although its sink failed after \(cut) bytes")
        case .failure(let error):
            guard let providerError = error as? ProviderError else {
                throw ConformanceFailure("the download whose sink failed threw \(type(of: error)) \(error), not a ProviderError")
            }
            context.note("the sink's failure surfaced as \(providerError.code)")
        }
        let calls = await sink.calls
        try context.expect(calls.last == .fail && !calls.contains(.finish), "after the sink failed, the provider called \(calls), not fail() last and never finish()")
        try await expectResumes(context, uploaded.path, into: file, cut: cut, of: source, "the failed download")
    }

    /// Checks what `what`, a download of `path` into `sink` stopped after `cut` bytes of `source`,
    /// left (a partial file of `cut` bytes, nothing under the final name), then resumes it: only
    /// the rest comes, the file matches `source`, and the partial file is gone.
    private static func expectResumes(
        _ context: ConformanceContext, _ path: ItemPath, into sink: FileSink, cut: Int64, of source: LocalFile, _ what: String
    ) async throws {
        let local = sink.url
        try context.expect(!FileManager.default.fileExists(atPath: local.path), "\(what) left a file under the final name")
        let partial = LocalFile.size(of: sink.partialURL)
        try context.expect(partial == cut, "\(what) left a partial file of \(String(describing: partial)) bytes, expected \(cut)")

        let size = source.size
        // A resume is never blind: partial bytes kept without a validator (a weak etag, or a
        // Last-Modified of the same second as the answer, as a file just uploaded has) start over.
        let kept = try await sink.resumePoint()?.validator
        let start = kept == nil ? 0 : cut
        if kept == nil { context.note("the partial file was kept without a validator: the resume started over") }
        let result = try await context.provider.download(path, to: FileSink(url: local, resumable: true), options: DownloadOptions(resume: true))
        try context.expect(result.offset == start, "the resumed download started at \(result.offset), not \(start) (validator \(kept ?? "none"))")
        try context.expect(result.bytesReceived == size - start, "the resumed download received \(result.bytesReceived) bytes, not \(size - start)")
        let digest = try LocalFile.sha256(of: local)
        try context.expect(digest == source.sha256, "the resumed file's SHA-256 is \(digest), the original's \(source.sha256)")
        try context.expect(!FileManager.default.fileExists(atPath: sink.partialURL.path), "the partial file is still there after the resumed download")
    }
}
