import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI
import ProviderKit
import Testing

// Written as an outside adapter author would: plain imports, public API only.

@Suite("Adapter kit: MultipartFormBody")
struct MultipartFormBodyTests {
    /// Every byte of `source`'s stream, and the size of each piece.
    private func read(_ source: any UploadSource) async throws -> (bytes: [UInt8], pieces: [Int]) {
        var bytes: [UInt8] = []
        var pieces: [Int] = []
        for try await piece in try source.makeStream() {
            bytes += piece.readableBytesView
            pieces.append(piece.readableBytes)
        }
        return (bytes, pieces)
    }

    /// The parts of a multipart body: each one's header lines and content.
    private func parse(_ body: [UInt8], boundary: String) throws -> [(headers: [String], content: [UInt8])] {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf = Array("\r\n".utf8)
        #expect(Array(body.prefix(delimiter.count)) == delimiter, "the body starts with the first boundary")
        #expect(Array(body.suffix(delimiter.count + 4)) == delimiter + Array("--\r\n".utf8), "and ends with the closing one")
        var parts: [(headers: [String], content: [UInt8])] = []
        let separator = crlf + delimiter
        var position = delimiter.count
        while Array(body[position..<position + 2]) == crlf {
            position += 2
            guard let next = find(separator, in: body, from: position) else { break }
            let part = Array(body[position..<next])
            let split = try #require(find(crlf + crlf, in: part, from: 0), "a part's head ends with an empty line")
            let head = String(decoding: part[..<split], as: UTF8.self).components(separatedBy: "\r\n")
            parts.append((head, Array(part[(split + 4)...])))
            position = next + separator.count
        }
        #expect(Array(body[position...]) == Array("--\r\n".utf8))
        return parts
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], Array(haystack[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }

    @Test("fields and a file are framed exactly: boundaries, CRLFs, dispositions, the length")
    func exactFraming() async throws {
        var form = MultipartFormBody(boundary: "XyZ")
        form.addField("path", "/Reports")
        form.addFile("file", filename: "q3.txt", contentType: "text/plain", source: DataSource(string: "line 1\r\nline 2"))
        form.addField("overwrite", "true")
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"path\"\r\n\r\n/Reports\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"q3.txt\"\r\nContent-Type: text/plain\r\n\r\n"
            + "line 1\r\nline 2\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"overwrite\"\r\n\r\ntrue\r\n"
            + "--XyZ--\r\n"
        let (bytes, _) = try await read(form)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(form.length == Int64(bytes.count))
        #expect(form.contentType == "multipart/form-data; boundary=XyZ")
        #expect(form.isReplayable)
        #expect(try await read(form).bytes == bytes, "replayed, the same bytes")

        let parts = try parse(bytes, boundary: form.boundary)
        #expect(parts.map(\.content) == [Array("/Reports".utf8), Array("line 1\r\nline 2".utf8), Array("true".utf8)])
    }

    @Test("quotes and line breaks in names cannot break the framing")
    func hostileNames() async throws {
        var form = MultipartFormBody()
        form.addFile("f\"x", filename: "a\"\r\nContent-Type: evil.txt", contentType: "text/plain\r\nX: y", source: DataSource(string: "z"))
        let (bytes, _) = try await read(form)
        let parts = try parse(bytes, boundary: form.boundary)
        #expect(parts.count == 1)
        #expect(parts.first?.headers == [
            "Content-Disposition: form-data; name=\"f%22x\"; filename=\"a%22%0D%0AContent-Type: evil.txt\"",
            "Content-Type: text/plainX: y",
        ])
        #expect(form.boundary.hasPrefix("strata-") && form.boundary.count == 39)
    }

    @Test("a big file part is streamed in the file's chunks, never whole, with its length known")
    func bigFileStreamed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        let size = 3 << 20
        let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        try Data(content).write(to: file)

        var form = MultipartFormBody()
        form.addField("name", "big.bin")
        form.addFile("file", filename: "big.bin", source: try FileSource(url: file, chunkSize: 64 << 10))
        let (bytes, pieces) = try await read(form)
        #expect(form.length == Int64(bytes.count))
        #expect(pieces.count > size / (64 << 10), "the file came in chunks: \(pieces.count) pieces")
        #expect(pieces.max() ?? 0 <= 64 << 10, "no piece larger than a chunk")
        let parts = try parse(bytes, boundary: form.boundary)
        #expect(parts.count == 2)
        #expect(parts.last?.content == content)
        #expect(parts.last?.headers.last == "Content-Type: application/octet-stream")
    }

    @Test("a file of unknown length leaves the length unknown and a one-shot file makes the body one-shot")
    func unknownLength() {
        var form = MultipartFormBody()
        form.addFile("file", filename: "s", source: AsyncSequenceSource(AsyncStream<ByteBuffer> { $0.finish() }))
        #expect(form.length == nil)
        #expect(!form.isReplayable)
    }

    @Test("a file that yields more bytes than it declared fails the body instead of breaking the framing")
    func lyingLength() async throws {
        var form = MultipartFormBody()
        let stream = AsyncStream<ByteBuffer> { continuation in
            continuation.yield(ByteBuffer(string: "too many bytes"))
            continuation.finish()
        }
        form.addFile("file", filename: "s", source: AsyncSequenceSource(stream, length: 3))
        let error = await #expect(throws: ProviderError.self) { _ = try await read(form) }
        #expect(error?.code == .io)
    }
}
