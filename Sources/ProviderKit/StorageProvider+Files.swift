import Foundation
import ProviderAPI

/// Transfers between a provider and local files, through ``FileSink`` and ``FileSource``.
extension StorageProvider {
    /// Downloads the file at `path` to the local file `url` (no partial file is ever left there).
    @discardableResult
    public func download(_ path: ItemPath, toFile url: URL, options: DownloadOptions = DownloadOptions()) async throws -> DownloadResult {
        try await download(path, to: FileSink(url: url, resumable: options.resume), options: options)
    }

    /// Uploads a local file to `path`.
    @discardableResult
    public func upload(file url: URL, to path: ItemPath, options: UploadOptions = UploadOptions()) async throws -> Item {
        try await upload(FileSource(url: url), to: path.parent, name: path.name, options: options)
    }
}
