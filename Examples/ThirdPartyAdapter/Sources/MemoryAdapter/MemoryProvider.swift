import Foundation
import ProviderAPI
import ProviderKit

/// A Strata provider over a ``MemoryVolume``: files and folders kept in this process's memory.
///
/// It is a complete adapter of the contract with no HTTP, and ProviderKit keeps its rules:
/// `DownloadPlan` and `DownloadDriver` do ranges, resume, preconditions, progress and the sink's
/// protocol; `UploadPlacement` does conflict names and preconditions; `ListingPager` does paging.
/// Every call throws `ProviderError` only, options of undeclared features are refused before
/// anything happens (`capabilities.require(options)`), and an upload is read whole before one
/// atomic commit, so a cancelled or failed upload leaves nothing behind.
public struct MemoryProvider: StorageProvider {
    /// What the memory volume does: everything it can show, nothing it cannot (no search,
    /// shares, change feed, quota, permissions or recursive folder etags).
    public static let memoryCapabilities = Capabilities(
        features: [
            .paging, .rangeDownload, .resumeDownload, .preconditions, .exclusiveCreate, .move, .copy, .setModifiedTime,
            .etags, .digests, .mimeTypes, .stableIDs, .emptyFolders,
        ],
        digestAlgorithms: [.sha256], modifiedTimePrecision: .milliseconds(1), names: NameRules(normalization: .nfc))

    /// How many bytes a download hands the sink at a time.
    static let pieceSize = 256 << 10

    public var capabilities: Capabilities { Self.memoryCapabilities }
    public let account: ProviderAccount
    let volume: MemoryVolume

    init(volume: MemoryVolume, account: ProviderAccount) {
        self.volume = volume
        self.account = account
    }

    // MARK: Reading

    public func item(at path: ItemPath) async throws -> Item {
        let (stored, node) = try await volume.node(at: path)
        return Self.item(stored, node)
    }

    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        // Byte order, and the last name of the page before as cursor: a listing goes on after it
        // even when entries were added or removed in between.
        let children = try await volume.children(of: folder)
        let names = ListingPager.sorted(Array(children.keys))
        let (selected, next) = try ListingPager.page(of: names, request: page, scope: folder.description)
        let items = selected.compactMap { name in children[name].map { Self.item($0.path, $0.node) } }
        return ItemPage(items: items, next: next, totalCount: names.count)
    }

    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try capabilities.require(options)
        let (stored, node) = try await volume.node(at: path)
        guard node.kind == .file else { throw ProviderError(.invalidArgument, "\(path) is a folder") }
        let item = Self.item(stored, node)
        let point = options.resume && options.range == nil ? try await sink.resumePoint() : nil
        let plan = try DownloadPlan(options: options, item: item, resumePoint: point)
        let body = Pieces(content: node.content, position: Int(plan.start), end: Int(plan.end))
        return try await DownloadDriver(plan: plan, item: item, options: options, request: "download \(path)").run(body, into: sink)
    }

    // MARK: Writing

    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try capabilities.require(options)
        let (stored, node) = try await UploadPlacement.place(
            name, in: folder, options: options,
            existing: { candidate in try await volume.existing(candidate, in: folder).map { Self.item($0.path, $0.node) } },
            write: { candidate, placement in
                let content = try await Self.read(source, progress: options.progress)
                return try await volume.commit(content, folder: folder, name: candidate, placement: placement, options: options)
            })
        return Self.item(stored, node)
    }

    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        let (stored, node) = try await volume.createFolder(named: name, in: parent)
        return Self.item(stored, node)
    }

    public func delete(_ path: ItemPath) async throws {
        try await volume.delete(path)
    }

    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        let (stored, node) = try await volume.transfer(source, to: destination, overwrite: options.overwrite, keepSource: false)
        return Self.item(stored, node)
    }

    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        let (stored, node) = try await volume.transfer(source, to: destination, overwrite: options.overwrite, keepSource: true)
        return Self.item(stored, node)
    }

    // MARK: Helpers

    /// The item of a node: only the properties of declared features (no permissions).
    static func item(_ path: ItemPath, _ node: MemoryVolume.Node) -> Item {
        let isFile = node.kind == .file
        return Item(
            id: node.id, path: path, kind: node.kind, size: isFile ? Int64(node.content.readableBytes) : nil, modified: node.modified,
            created: node.created, etag: node.etag, mimeType: isFile ? node.mimeType : nil,
            digests: node.sha256.map { [.sha256: $0] } ?? [:])
    }

    /// The whole content of `source`, with progress and cancellation.
    ///
    /// - Throws: `ProviderError.Code.conflict` when it is not the length it declared.
    static func read(_ source: any UploadSource, progress: ProgressHandler?) async throws -> ByteBuffer {
        var content = ByteBuffer()
        do {
            progress?(TransferProgress(completed: 0, expected: source.length))
            for try await var piece in try source.makeStream() {
                try Task.checkCancellation()
                content.writeBuffer(&piece)
                progress?(TransferProgress(completed: Int64(content.readableBytes), expected: source.length))
            }
            try Task.checkCancellation()
        } catch {
            throw ProviderError.wrap(error)
        }
        if let length = source.length, length != Int64(content.readableBytes) {
            throw ProviderError(.conflict, "the source gave \(content.readableBytes) bytes, not the \(length) it declared")
        }
        return content
    }

    /// The bytes `position..<end` of a file's content in pieces of ``pieceSize``, each a slice
    /// of the same storage (no copy), for `DownloadDriver`.
    struct Pieces: AsyncSequence, AsyncIteratorProtocol {
        let content: ByteBuffer
        var position: Int
        let end: Int

        mutating func next() async -> ByteBuffer? {
            let length = Swift.min(pieceSize, end - position)
            guard length > 0, let piece = content.getSlice(at: content.readerIndex + position, length: length) else { return nil }
            position += piece.readableBytes
            return piece
        }

        func makeAsyncIterator() -> Pieces { self }
    }
}
