import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import Testing
import HTTPProviderKit

private func drain(_ source: some UploadSource) async throws -> (bytes: [UInt8], pieces: Int) {
    var bytes: [UInt8] = []
    var count = 0
    for try await piece in try source.makeStream() {
        bytes += Array(piece.readableBytesView)
        count += 1
    }
    return (bytes, count)
}

private let sample: [UInt8] = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 11) }

@Suite("Upload sources")
struct UploadSourceTests {
    @Test("DataSource streams its exact bytes in pieces and can be replayed")
    func dataSource() async throws {
        let source = DataSource(bytes: sample)
        #expect(source.isReplayable)
        #expect(source.length == 700_000)
        let first = try await drain(source)
        #expect(first.bytes == sample)
        #expect(first.pieces == 3, "256 KiB pieces")
        #expect(try await drain(source).bytes == sample)
        #expect(try await drain(DataSource(string: "héllo")).bytes == Array("héllo".utf8))
        #expect(try await drain(DataSource(Data())).bytes.isEmpty)
        #expect(DataSource(Data()).length == 0)
    }

    @Test("DataSource over a buffer streams its readable bytes in pieces, as often as it is replayed")
    func dataSourceOverBuffer() async throws {
        var buffer = ByteBuffer(bytes: [9, 9, 9] + sample)
        buffer.moveReaderIndex(forwardBy: 3)
        let source = DataSource(buffer: buffer)
        #expect(source.isReplayable)
        #expect(source.length == 700_000)
        for _ in 0..<2 {
            let drained = try await drain(source)
            #expect(drained.bytes == sample)
            #expect(drained.pieces == 3, "256 KiB pieces")
        }
        #expect(try source.wholeBody().readableBytesView.elementsEqual(sample))
    }

    @Test("FileSource streams the file's exact bytes and can be replayed")
    func fileSource() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data(sample).write(to: dir.file("f.bin"))
        let source = try FileSource(url: dir.file("f.bin"), chunkSize: 65_536)
        #expect(source.isReplayable)
        #expect(source.length == 700_000)
        let first = try await drain(source)
        #expect(first.bytes == sample)
        #expect(first.pieces == 11)
        #expect(try await drain(source).bytes == sample)
    }

    @Test("FileSource of an empty file streams nothing")
    func emptyFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data().write(to: dir.file("empty"))
        let source = try FileSource(url: dir.file("empty"))
        #expect(source.length == 0)
        #expect(try await drain(source).bytes.isEmpty)
    }

    @Test("FileSource of a missing file is notFound")
    func missingFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let error = #expect(throws: ProviderError.self) { try FileSource(url: dir.file("nope")) }
        #expect(error?.code == .notFound)
    }

    @Test("FileSource of a file that shrinks fails instead of sending short")
    func shrinkingFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data(sample[0..<1000]).write(to: dir.file("f"))
        let source = try FileSource(url: dir.file("f"), chunkSize: 100)
        try Data(sample[0..<500]).write(to: dir.file("f"))
        let error = await #expect(throws: ProviderError.self) { _ = try await drain(source) }
        #expect(error?.code == .conflict)
    }

    @Test("AsyncSequenceSource is one-shot and streams exact bytes")
    func asyncSequenceSource() async throws {
        let sequence = OneShotSequence([Array("ab".utf8), [], Array("cd".utf8)])
        let source = AsyncSequenceSource(sequence, length: 4)
        #expect(!source.isReplayable)
        #expect(source.length == 4)
        #expect(try await drain(source).bytes == Array("abcd".utf8))
        #expect(sequence.timesIterated == 1)
        #expect(AsyncSequenceSource(sequence).length == nil)
    }

    @Test("request bodies report replayability and length")
    func requestBody() {
        #expect(HTTPRequestBody.bytes(ByteBuffer(string: "abc")).isReplayable)
        #expect(HTTPRequestBody.bytes(ByteBuffer(string: "abc")).length == 3)
        #expect(HTTPRequestBody.source(DataSource(string: "abcd")).isReplayable)
        #expect(HTTPRequestBody.source(DataSource(string: "abcd")).length == 4)
        #expect(!HTTPRequestBody.source(AsyncSequenceSource(OneShotSequence([]))).isReplayable)
    }
}
