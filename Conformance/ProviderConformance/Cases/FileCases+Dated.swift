import Foundation
import ProviderAPI
import ProviderKit

extension FileCases {
    /// An upload given a modified time keeps its content, whatever route the adapter takes for
    /// it: an adapter written from outside stored every file uploaded with a modified time empty
    /// (it set the time with a second request that sent no body), and every other case passed it.
    ///
    /// Every size class (0 bytes, 1000 bytes, past every chunk and spool threshold: one byte more
    /// than `ConformanceOptions.mediumFileSize` and each of ``ConformanceOptions/uploadThresholds``)
    /// goes through every kind of source (bytes in memory, a file streamed from disk, and a one-shot
    /// stream of unknown length, which the contract allows), each with a modified time, and is read
    /// back byte for byte. A provider may refuse a source of unknown length with `unsupported` or
    /// `invalidArgument` (noted), never store something else. Runs on every provider: a modified
    /// time the provider cannot set is ignored, not a reason to lose the content.
    static let datedUploadsKeepContent = ConformanceCase(
        "files.datedUploadsKeepContent",
        summary: "An upload with a modified time keeps its content, read back byte for byte, for every size class and kind of source"
    ) { context in
        let modified = Date(timeIntervalSince1970: 1_614_834_367)
        var sizes = Set<Int64>([0, 1000, Int64(context.options.mediumFileSize) + 1])
        for threshold in context.options.uploadThresholds where threshold >= 0 { sizes.insert(threshold + 1) }
        if let maximum = context.capabilities.maxUploadSize { sizes = sizes.filter { $0 <= maximum } }
        for size in sizes.sorted() {
            let file = try context.makeRandomFile(named: "dated-\(size).source", size: size)
            defer { try? FileManager.default.removeItem(at: file.url) }
            for route in DatedRoute.allCases {
                let name = "dated-\(size)-\(route.rawValue).bin"
                let source = try route.source(file.url)
                let uploaded: Item
                do {
                    uploaded = try await context.provider.upload(
                        source, to: context.folder, name: name, options: UploadOptions(conflict: .fail, modified: modified))
                } catch let error as ProviderError where route == .unknownLength && [.unsupported, .invalidArgument].contains(error.code) {
                    context.note("\(size) bytes of unknown length refused: \(error.code)")
                    continue
                }
                let what = "\(size) bytes from \(route.description) with a modified time"
                if let returned = uploaded.size {
                    try context.expect(returned == size, "the upload of \(what) returned size \(returned)")
                }
                let stat = try await context.provider.item(at: uploaded.path)
                try context.expect(stat.size == size, "item(at:) says \(String(describing: stat.size)) bytes after an upload of \(what)")
                let local = context.localURL(name)
                _ = try await context.provider.download(uploaded.path, to: FileSink(url: local), options: DownloadOptions())
                let length = LocalFile.size(of: local)
                try context.expect(length == size, "\(what) read back as \(String(describing: length)) bytes")
                let digest = try LocalFile.sha256(of: local)
                try context.expect(digest == file.sha256, "\(what) read back with other bytes (SHA-256 \(digest), sent \(file.sha256))")
                try? FileManager.default.removeItem(at: local)
                try await context.provider.delete(uploaded.path)
            }
        }
    }
}

/// The kinds of upload source the dated-upload case sends through.
enum DatedRoute: String, CaseIterable, CustomStringConvertible {
    /// A `DataSource`: known length, whole body in memory.
    case memory
    /// A `FileSource`: known length, streamed and replayable.
    case file
    /// An `AsyncSequenceSource` without a length: one-shot, unknown length.
    case unknownLength

    var description: String {
        switch self {
        case .memory: return "bytes in memory"
        case .file: return "a file"
        case .unknownLength: return "a stream of unknown length"
        }
    }

    /// The source over the bytes of `url`.
    func source(_ url: URL) throws -> any UploadSource {
        switch self {
        case .memory: return DataSource(try Data(contentsOf: url))
        case .file: return try FileSource(url: url)
        case .unknownLength: return AsyncSequenceSource(try FileSource(url: url).makeStream(), length: nil)
        }
    }
}
