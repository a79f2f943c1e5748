import Foundation
import ProviderAPI

extension ConformanceContext {
    /// Uploads `bytes` as the file `name` in `folder` (the case's folder by default).
    @discardableResult
    package func upload(
        _ bytes: [UInt8], as name: String, in folder: ItemPath? = nil, options: UploadOptions = UploadOptions()
    ) async throws -> Item {
        try await provider.upload(DataSource(bytes: bytes), to: folder ?? self.folder, name: name, options: options)
    }

    /// Uploads the UTF-8 of `text` as the file `name` in `folder` (the case's folder by default).
    @discardableResult
    package func upload(
        text: String, as name: String, in folder: ItemPath? = nil, options: UploadOptions = UploadOptions()
    ) async throws -> Item {
        try await upload(Array(text.utf8), as: name, in: folder, options: options)
    }

    /// Creates the folder `name` in `parent` (the case's folder by default).
    @discardableResult
    package func makeFolder(_ name: String, in parent: ItemPath? = nil) async throws -> Item {
        try await provider.createFolder(named: name, in: parent ?? folder)
    }

    /// Downloads the whole file at `path` into memory (up to 64 MiB).
    package func content(of path: ItemPath, options: DownloadOptions = DownloadOptions()) async throws -> [UInt8] {
        let sink = MemorySink()
        _ = try await provider.download(path, to: sink, options: options)
        return await sink.bytes
    }

    /// Every child of `folder`, fetching every page.
    package func children(of folder: ItemPath? = nil) async throws -> [Item] {
        try await provider.listAll(folder ?? self.folder)
    }

    /// Writes a file of `size` random bytes into the case's temporary folder and returns it with its SHA-256.
    package func makeRandomFile(named name: String, size: Int64) throws -> LocalFile {
        let url = localURL(name)
        let digest = try LocalFile.writeRandom(to: url, size: size)
        return LocalFile(url: url, size: size, sha256: digest)
    }
}
