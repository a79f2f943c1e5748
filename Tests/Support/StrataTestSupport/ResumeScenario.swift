import HTTPProviderKit
import ProviderAPI
import ProviderTesting
import Testing

/// The steps the resumed-upload tests of the chunked adapters share: an upload of `big.bin` cut
/// after some chunks, then sent again with the same resume key (it resumes from the checkpoint, or
/// starts over where the server lost the session) or with another key (it never reuses the
/// session). Each adapter's tests add what only its server shows between the steps.
public struct ResumeScenario: Sendable {
    /// The name every upload of the scenario writes, in the provider's root.
    public static let name = "big.bin"

    /// The provider under test, sending through ``meter`` and keeping sessions in ``store``.
    public let provider: any StorageProvider
    /// Counts and cuts the provider's chunk requests.
    public let meter: ChunkMeter
    /// The provider's upload checkpoints.
    package let store: InMemoryUploadCheckpoints
    /// The adapter's chunk size, as configured.
    public let chunk: Int

    /// A scenario on the provider that `connect` makes with the transport and checkpoint store it
    /// is given; `isChunk` recognises the adapter's chunk requests.
    package static func start(
        chunk: Int, isChunk: @escaping @Sendable (TransportRequest) -> Bool,
        connect: (_ transport: FaultInjectingTransport, _ store: InMemoryUploadCheckpoints) async throws -> any StorageProvider
    ) async throws -> ResumeScenario {
        let meter = ChunkMeter(isChunk: isChunk)
        let store = InMemoryUploadCheckpoints()
        let provider = try await connect(meter.transport, store)
        return ResumeScenario(provider: provider, meter: meter, store: store, chunk: chunk)
    }

    /// How many chunks `count` bytes make.
    public func chunks(in count: Int) -> Int { (count + chunk - 1) / chunk }

    /// Uploads `bytes` with `key`, expecting the cut to stop it with a network error.
    public func cutUpload(_ bytes: [UInt8], key: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let source = OffsetSource(bytes)
        let error = await #expect(throws: ProviderError.self, sourceLocation: sourceLocation) {
            _ = try await provider.upload(source, to: .root, name: Self.name, options: UploadOptions(resumeKey: key))
        }
        #expect(error?.code == .network, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    /// Arms the cut after `count` chunks and uploads `bytes` with `key`: it stops there, with one
    /// checkpoint kept.
    public func cut(_ bytes: [UInt8], after count: Int, key: String = "source-1", sourceLocation: SourceLocation = #_sourceLocation) async {
        meter.cut(after: count)
        await cutUpload(bytes, key: key, sourceLocation: sourceLocation)
        #expect(meter.chunks == count, sourceLocation: sourceLocation)
        #expect(await store.all.count == 1, sourceLocation: sourceLocation)
    }

    /// Uploads `bytes` again with `key` after a cut after `count` chunks: only the missing chunks
    /// are sent (their bodies exactly the missing bytes, when `bareBodies`: a body that is the chunk
    /// alone, not a form around it), read once from the source's offset; the file is whole and no
    /// checkpoint is left. Returns the uploaded item.
    @discardableResult
    public func resume(
        _ bytes: [UInt8], cutAfter count: Int, key: String = "source-1", bareBodies: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Item {
        meter.reset()
        let again = OffsetSource(bytes)
        let item = try await provider.upload(again, to: .root, name: Self.name, options: UploadOptions(resumeKey: key))
        let resumedAt = Int64(count * chunk)
        #expect(meter.chunks == chunks(in: bytes.count) - count, sourceLocation: sourceLocation)
        if bareBodies { #expect(meter.bytes == Int64(bytes.count) - resumedAt, sourceLocation: sourceLocation) }
        // Read once, from the offset: neither spooled nor read for a digest first.
        #expect(again.offsets == [resumedAt], sourceLocation: sourceLocation)
        #expect(again.bytesRead == Int64(bytes.count) - resumedAt, sourceLocation: sourceLocation)
        #expect(try await content() == bytes, sourceLocation: sourceLocation)
        #expect(await store.all.isEmpty, sourceLocation: sourceLocation)
        return item
    }

    /// Uploads `bytes` with `key` where no session may be reused: every chunk is sent, the source
    /// read from its start; the file is whole and no checkpoint is left.
    public func sendsAll(_ bytes: [UInt8], key: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        meter.reset()
        let source = OffsetSource(bytes)
        _ = try await provider.upload(source, to: .root, name: Self.name, options: UploadOptions(resumeKey: key))
        #expect(meter.chunks == chunks(in: bytes.count), sourceLocation: sourceLocation)
        #expect(source.offsets == [0], sourceLocation: sourceLocation)
        #expect(try await content() == bytes, sourceLocation: sourceLocation)
        #expect(await store.all.isEmpty, sourceLocation: sourceLocation)
    }

    /// The content of `big.bin` on the server.
    public func content() async throws -> [UInt8] {
        let sink = MemorySink(limit: 4 << 20)
        _ = try await provider.download(try ItemPath.root.appending(Self.name), to: sink, options: DownloadOptions())
        return await sink.bytes
    }
}
