import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import Testing
import TransferEngine

/// Small files are downloaded whole and uploaded from one buffer; what they must still do as
/// streamed files do: arrive exact, continue a cut download, and never be stored short or long.
@Suite("TransferEngine: small files in one buffer")
struct WholeFileCopyTests {
    @Test("a small file reaches the destination's upload as one buffer of its length; a large one is streamed")
    func smallFilesGoWhole() async throws {
        let source = try LocalTree()
        let small = Data((0..<(200 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let large = Data((0..<(600 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 11) })
        try source.write("small.bin", small)
        try source.write("large.bin", large)
        try source.write("empty.bin", Data())
        let memory = MemoryServer()
        let recorder = UploadRecorder(base: memory.provider)
        let progress = NIOLockedValueBox<[String: Int64]>([:])
        let manager = TransferManager(options: .testing()) { event in
            if case .fileProgress(let action, let done) = event {
                progress.withLockedValue { $0[action.relativePath.name] = max($0[action.relativePath.name] ?? 0, done.completed) }
            }
        }
        let report = try await manager.copy(from: source.endpoint, to: TransferEndpoint(recorder))
        #expect(report.succeeded)
        #expect(report.filesCopied == 3)
        #expect(try await memory.provider.data(at: "/small.bin") == small)
        #expect(try await memory.provider.data(at: "/large.bin") == large)
        #expect(try await memory.provider.data(at: "/empty.bin") == Data())
        let uploads = recorder.uploads.withLockedValue { $0 }
        #expect(uploads["small.bin"] == .whole(Int64(small.count)))
        #expect(uploads["empty.bin"] == .whole(0))
        #expect(uploads["large.bin"] == .streamed)
        #expect(progress.withLockedValue { $0 }["small.bin"] == Int64(small.count))
    }

    @Test("a small file's download cut in the middle continues into the same buffer, without starting the file again")
    func cutSmallDownloadContinues() async throws {
        try await MemoryServer.expectCutDownloadContinues(size: 100 << 10, cutAfter: 30_000)
    }

    @Test("a small file whose content is longer or shorter than the source listed is an integrity failure, and nothing is stored")
    func lengthMismatchIsNeverStored() async throws {
        for change in [-2, 3] {
            let memory = MemoryServer()
            _ = try await memory.provider.upload(data: Data("twelve bytes".utf8), to: "/a.txt")
            let lying = ListedSizeChanger(base: memory.provider, change: Int64(change))
            let destination = try LocalTree()
            let report = try await TransferManager(options: .testing()).copy(from: TransferEndpoint(lying), to: destination.endpoint)
            #expect(report.failures.map(\.relativePath) == ["/a.txt"])
            #expect(report.failures.first?.error.code == .integrity)
            #expect(try destination.listing().isEmpty)
        }
    }
}

/// How an upload's body came: one buffer of a known length, or a stream.
enum RecordedUpload: Equatable, Sendable {
    case whole(Int64)
    case streamed
}

/// A provider that records how each upload's body came, then passes it on.
struct UploadRecorder: ForwardingProvider {
    let base: any StorageProvider
    let uploads = NIOLockedValueBox<[String: RecordedUpload]>([:])
    var account: ProviderAccount { ProviderAccount(kind: "memory", server: "http://recorder.invalid") }

    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        let kind: RecordedUpload
        if let whole = source as? any WholeBodySource, let length = source.length, try await whole.wholeBody().readableBytes == length {
            kind = .whole(length)
        } else {
            kind = .streamed
        }
        uploads.withLockedValue { $0[name] = kind }
        return try await base.upload(source, to: folder, name: name, options: options)
    }
}

/// A provider whose listings and lookups declare every file `change` bytes longer than it is.
struct ListedSizeChanger: ForwardingProvider {
    let base: any StorageProvider
    let change: Int64
    var account: ProviderAccount { ProviderAccount(kind: "memory", server: "http://lying.invalid") }

    private func changed(_ item: Item) -> Item {
        var item = item
        if item.kind == .file, let size = item.size { item.size = size + change }
        return item
    }

    func item(at path: ItemPath) async throws -> Item { changed(try await base.item(at: path)) }
    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage {
        var listed = try await base.list(folder, page: page)
        listed.items = listed.items.map(changed)
        return listed
    }
}
