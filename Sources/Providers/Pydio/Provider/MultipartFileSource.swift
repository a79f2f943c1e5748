import Foundation
import NIOCore
import ProviderAPI

/// A `multipart/form-data` body holding one file field, streamed from another source: the part
/// header, the file's bytes as they are read, then the closing boundary. Memory stays flat.
struct MultipartFileSource: UploadSource {
    let boundary: String
    let prefix: ByteBuffer
    let suffix: ByteBuffer
    let file: any UploadSource

    /// A body with the file in field `field`, sent under `fileName`.
    init(file: any UploadSource, field: String, fileName: String, mimeType: String) {
        boundary = "strata-\(UUID().uuidString)"
        let quoted = fileName.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "")
            .replacingOccurrences(of: "\n", with: "")
        prefix = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(quoted)\"\r\n"
            + "Content-Type: \(mimeType)\r\n\r\n")
        suffix = ByteBuffer(string: "\r\n--\(boundary)--\r\n")
        self.file = file
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }
    var length: Int64? { file.length.map { $0 + Int64(prefix.readableBytes + suffix.readableBytes) } }
    var isReplayable: Bool { file.isReplayable }

    func makeStream() throws -> UploadStream {
        UploadStream(FramedBody(prefix: prefix, inner: try file.makeStream(), suffix: suffix))
    }
}

/// Bytes before, the inner stream, bytes after.
private struct FramedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let prefix: ByteBuffer
    let inner: UploadStream
    let suffix: ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        var prefix: ByteBuffer?
        var inner: UploadStream.AsyncIterator?
        var suffix: ByteBuffer?

        mutating func next() async throws -> ByteBuffer? {
            if let head = prefix {
                prefix = nil
                return head
            }
            if inner != nil {
                if let piece = try await inner?.next() { return piece }
                inner = nil
            }
            defer { suffix = nil }
            return suffix
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(prefix: prefix, inner: inner.makeAsyncIterator(), suffix: suffix) }
}
