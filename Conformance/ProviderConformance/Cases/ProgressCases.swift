import Foundation
import ProviderAPI
import ProviderKit

/// Progress of downloads and uploads.
enum ProgressCases {
    static var all: [ConformanceCase] { [download, upload] }

    private static let size: Int64 = 3 << 20

    static let download = ConformanceCase(
        "progress.download", summary: "Download progress never decreases and ends at the file's size"
    ) { context in
        let source = try context.makeRandomFile(named: "progress.source", size: size)
        let uploaded = try await context.provider.upload(try FileSource(url: source.url), to: context.folder, name: "progress.bin", options: UploadOptions())
        let recorder = ProgressRecorder()
        _ = try await context.provider.download(
            uploaded.path, to: FileSink(url: context.localURL("progress.bin")), options: DownloadOptions(progress: recorder.handler))
        if let problem = recorder.problem(size: size) { throw ConformanceFailure("download: \(problem)") }
        context.note("\(recorder.all.count) reports")
    }

    static let upload = ConformanceCase(
        "progress.upload", summary: "Upload progress never decreases and ends at the file's size"
    ) { context in
        let source = try context.makeRandomFile(named: "progress.source", size: size)
        let recorder = ProgressRecorder()
        _ = try await context.provider.upload(
            try FileSource(url: source.url), to: context.folder, name: "progress.bin", options: UploadOptions(progress: recorder.handler))
        if let problem = recorder.problem(size: size) { throw ConformanceFailure("upload: \(problem)") }
        context.note("\(recorder.all.count) reports")
    }
}
