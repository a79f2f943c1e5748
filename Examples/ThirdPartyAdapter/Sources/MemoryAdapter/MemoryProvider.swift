import Foundation
import NIOCore
import ProviderAPI
import ProviderKit

/// A Strata provider over a ``MemoryVolume``: files and folders kept in this process's memory.
///
/// It is a complete adapter of the contract in a few hundred lines, with no HTTP: every call
/// throws ``ProviderError`` only, options of undeclared features are refused before anything
/// happens (``Capabilities/require(_:)-(DownloadOptions)``), downloads stream into the sink in
/// pieces with progress and cancellation, and uploads are read whole before one atomic commit,
/// so a cancelled or failed upload leaves nothing behind.
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
        // The cursor is the last name of the previous page: a listing goes on after it even when
        // entries were added or removed in between.
        let entries = try await volume.children(of: folder, after: page.cursor?.rawValue)
        let limit = page.limit.map { max(1, $0) } ?? entries.count
        let items = entries.prefix(limit).map { Self.item($0.path, $0.node) }
        let next = entries.count > limit ? items.last.map { PageCursor($0.name) } : nil
        return ItemPage(items: items, next: next)
    }

    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try capabilities.require(options)
        let (stored, node) = try await volume.node(at: path)
        guard node.kind == .file else { throw ProviderError(.invalidArgument, "\(path) is a folder") }
        let item = Self.item(stored, node)
        if let ifMatch = options.ifMatch, ifMatch != node.etag {
            throw ProviderError(.preconditionFailed, "\(path) changed: \(node.etag), not \(ifMatch)")
        }
        if let ifNoneMatch = options.ifNoneMatch, ifNoneMatch == node.etag {
            return DownloadResult(item: item, notModified: true, bytesReceived: 0)
        }
        let size = Int64(node.content.count)
        // Which bytes to send, and where the sink's content starts: a range is a body of its own
        // (the sink holds only the range), a resumed download continues what the sink holds when
        // it was of this same content.
        var start: Int64 = 0
        var end = size
        var sinkOffset: Int64 = 0
        if let range = options.range {
            (start, end) = try Self.bounds(of: range, size: size)
        } else if options.resume, let point = try await sink.resumePoint(), point.length > 0, point.length <= size,
            point.validator.map({ $0 == node.etag }) ?? true
        {
            start = point.length
            sinkOffset = point.length
        }
        do {
            try await sink.begin(offset: sinkOffset, expectedLength: end - start, validator: node.etag)
            let total = options.range == nil ? size : end - start
            var sent: Int64 = 0
            options.progress?(TransferProgress(completed: sinkOffset, expected: total))
            var position = start
            while position < end {
                try Task.checkCancellation()
                let pieceEnd = min(end, position + Int64(Self.pieceSize))
                try await sink.write(ByteBuffer(bytes: node.content[Int(position)..<Int(pieceEnd)]))
                sent += pieceEnd - position
                position = pieceEnd
                options.progress?(TransferProgress(completed: sinkOffset + sent, expected: total))
            }
            try Task.checkCancellation()
            try await sink.finish()
            return DownloadResult(item: item, bytesReceived: sent, offset: start)
        } catch {
            // The sink's protocol: after `begin`, every failure ends in `fail`, which removes or
            // keeps a partial file as the sink decides; never a partial file under the final name.
            await sink.fail()
            throw ProviderError.wrap(error)
        }
    }

    // MARK: Writing

    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try capabilities.require(options)
        // Fail before reading a byte when the upload cannot succeed (a taken name, a stale etag).
        _ = try await volume.target(folder: folder, name: name, conflict: options.conflict, ifMatch: options.ifMatch)
        var content: [UInt8] = []
        do {
            options.progress?(TransferProgress(completed: 0, expected: source.length))
            for try await piece in try source.makeStream() {
                try Task.checkCancellation()
                content.append(contentsOf: piece.readableBytesView)
                options.progress?(TransferProgress(completed: Int64(content.count), expected: source.length))
            }
            try Task.checkCancellation()
        } catch {
            throw ProviderError.wrap(error)
        }
        if let length = source.length, length != Int64(content.count) {
            throw ProviderError(.invalidArgument, "the source gave \(content.count) bytes, not the \(length) it declared")
        }
        let (stored, node) = try await volume.commit(content, folder: folder, name: name, options: options)
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
            id: node.id, path: path, kind: node.kind, size: isFile ? Int64(node.content.count) : nil, modified: node.modified,
            created: node.created, etag: node.etag, mimeType: isFile ? node.mimeType : nil,
            digests: node.sha256.map { [.sha256: $0] } ?? [:])
    }

    /// The bytes `range` names in content of `size` bytes, as start and end (exclusive).
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` for a range that starts past the end or is empty.
    static func bounds(of range: ByteRange, size: Int64) throws -> (start: Int64, end: Int64) {
        let bounds: (Int64, Int64)
        switch range {
        case .bytes(let closed): bounds = (closed.lowerBound, min(size, closed.upperBound + 1))
        case .from(let offset): bounds = (offset, size)
        case .suffix(let count): bounds = (max(0, size - count), size)
        }
        guard bounds.0 >= 0, bounds.0 < bounds.1 else {
            throw ProviderError(.invalidArgument, "the range \(range.httpHeaderValue) is outside the file's \(size) bytes")
        }
        return bounds
    }
}
