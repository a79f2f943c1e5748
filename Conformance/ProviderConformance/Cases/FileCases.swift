import Foundation
import ProviderAPI
import ProviderKit

/// Files of 0 bytes, 1 byte, several MiB and (optionally) 1 GiB round-trip intact.
enum FileCases {
    static var all: [ConformanceCase] { [empty, oneByte, medium, large, datedUploadsKeepContent] }

    static let empty = ConformanceCase(
        "files.empty", summary: "A 0-byte file uploads, lists with size 0 and downloads to an empty local file"
    ) { context in
        let uploaded = try await context.upload([], as: "empty.bin")
        let stat = try await context.provider.item(at: uploaded.path)
        try context.expect(stat.size == 0, "item(at:) says size \(String(describing: stat.size)), not 0")
        let local = context.localURL("empty.bin")
        let result = try await context.provider.download(uploaded.path, to: FileSink(url: local), options: DownloadOptions())
        try context.expect(result.bytesReceived == 0, "downloading 0 bytes received \(result.bytesReceived)")
        try context.expect(LocalFile.size(of: local) == 0, "the downloaded file has \(String(describing: LocalFile.size(of: local))) bytes, or is missing")
    }

    static let oneByte = ConformanceCase(
        "files.oneByte", summary: "A 1-byte file round-trips"
    ) { context in
        let uploaded = try await context.upload([0x2A], as: "one.bin")
        let stat = try await context.provider.item(at: uploaded.path)
        try context.expect(stat.size == 1, "item(at:) says size \(String(describing: stat.size)), not 1")
        try await context.expectContent(uploaded.path, [0x2A])
    }

    static let medium = ConformanceCase(
        "files.medium", summary: "A multi-MiB random file streams from disk and back with the same SHA-256"
    ) { context in
        try await roundTrip(size: Int64(context.options.mediumFileSize), name: "medium.bin", context: context)
    }

    static let large = ConformanceCase(
        "files.large", needsLargeFiles: true, summary: "A 1 GiB file streams from disk and back with the same SHA-256"
    ) { context in
        try await roundTrip(size: context.options.largeFileSize, name: "large.bin", context: context)
    }

    /// Uploads a random local file with a `FileSource`, downloads it with a `FileSink` and compares SHA-256.
    static func roundTrip(size: Int64, name: String, context: ConformanceContext) async throws {
        if let maximum = context.capabilities.maxUploadSize, maximum < size {
            throw ConformanceSkip(.uploadLimit(maximum: maximum, needed: size))
        }
        let source = try context.makeRandomFile(named: "\(name).source", size: size)
        let uploaded = try await context.provider.upload(
            try FileSource(url: source.url), to: context.folder, name: name, options: UploadOptions(conflict: .fail))
        try? FileManager.default.removeItem(at: source.url)
        let stat = try await context.provider.item(at: uploaded.path)
        try context.expect(stat.size == size, "item(at:) says size \(String(describing: stat.size)), not \(size)")
        let local = context.localURL(name)
        let result = try await context.provider.download(uploaded.path, to: FileSink(url: local), options: DownloadOptions())
        try context.expect(result.bytesReceived == size, "the download received \(result.bytesReceived) of \(size) bytes")
        try context.expect(LocalFile.size(of: local) == size, "the downloaded file has \(String(describing: LocalFile.size(of: local))) bytes, not \(size)")
        let digest = try LocalFile.sha256(of: local)
        try context.expect(digest == source.sha256, "the downloaded SHA-256 is \(digest), the uploaded file's is \(source.sha256)")
        try? FileManager.default.removeItem(at: local)
        try await context.provider.delete(uploaded.path)
    }
}
