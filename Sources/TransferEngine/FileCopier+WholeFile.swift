import NIOConcurrencyHelpers
import ProviderAPI

extension FileCopier {
    /// Files smaller than this (as the source listed them) are downloaded whole into memory and
    /// uploaded as one buffer, instead of streamed through a ``BytePipe``: at most
    /// ``TransferManager/Options/transfers`` of them are held at once. The transports send a
    /// body of this size in one buffer too.
    static let wholeFileLimit: Int64 = 256 << 10

    /// Copies the file of `action`, of `size` bytes, through memory: its download, then its
    /// upload from one buffer. The file's and the job's progress move once, when it is stored.
    /// Returns the destination's item as the upload answered it.
    @discardableResult
    func copyWhole(_ action: TransferAction, from sourcePath: ItemPath, size: Int64, counted: NIOLockedValueBox<Int64>) async throws -> Item {
        let sink = WholeFileSink(length: size)
        _ = try await source.provider.download(sourcePath, to: sink, options: DownloadOptions())
        guard let content = await sink.content else {
            throw ProviderError(.integrity, "the download of \(action.relativePath) ended without its \(size) bytes")
        }
        let target = action.destination
        let uploaded = try await destination.provider.upload(
            DataSource(buffer: content), to: target.parent, name: target.name, options: uploadOptions(action))
        progress(action, completed: size, counted: counted)
        return uploaded
    }
}
