import Foundation
import NIOCore
import ProviderAPI

/// A `multipart/form-data` request body (RFC 7578): text fields and files, each file streamed
/// from its source while the body is sent, so memory stays flat whatever the file's size.
///
/// The body is an `UploadSource`: send it as ``HTTPRequestBody/source(_:)`` with
/// ``contentType`` as the request's `Content-Type`. Its `length` (sent as `Content-Length`) is
/// known when every file's source knows its own; the body is replayable (retried, redirected)
/// when every file's source is.
///
/// ```swift
/// var form = MultipartFormBody()
/// form.addField("path", "/Reports")
/// form.addFile("file", filename: "q3.pdf", contentType: "application/pdf", source: try FileSource(url: local))
/// let request = TransportRequest(
///     method: .POST, url: uploadURL, headers: ["Content-Type": form.contentType], body: .source(form))
/// ```
///
/// A part's name and file name are sent as UTF-8, with `"`, CR and LF percent-encoded as
/// browsers do (the HTML standard's form encoding); a file's content type loses any CR or LF.
public struct MultipartFormBody: UploadSource {
    /// The boundary between parts; random unless given.
    public let boundary: String
    private var segments: [Segment] = []

    /// One piece of the body: framing and fields in memory, or a file's source.
    private enum Segment: Sendable {
        case bytes(ByteBuffer)
        case file(any UploadSource)
    }

    /// Creates an empty form.
    ///
    /// - Parameter boundary: the boundary between parts: 1 to 70 letters, digits and `'()+_,-./:=?`
    ///   (RFC 2046) that no part contains; by default `strata-` and 32 random hexadecimal digits.
    public init(boundary: String = MultipartFormBody.randomBoundary()) {
        self.boundary = boundary
    }

    /// A boundary no content is expected to contain: `strata-` and 32 random hexadecimal digits.
    public static func randomBoundary() -> String {
        "strata-" + (0..<2).map { _ in
            let value = UInt64.random(in: 0...UInt64.max)
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// The request's `Content-Type`: `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds the text field `name` with `value`.
    public mutating func addField(_ name: String, _ value: String) {
        var head = ByteBuffer()
        head.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(name))\"\r\n\r\n")
        head.writeString(value)
        head.writeString("\r\n")
        append(head)
    }

    /// Adds the file field `name`, named `filename`, whose bytes `source` streams.
    public mutating func addFile(
        _ name: String, filename: String, contentType: String = "application/octet-stream", source: any UploadSource
    ) {
        // By scalars: "\r\n" is one `Character`, equal neither to "\r" nor to "\n".
        var type = ""
        type.unicodeScalars.append(contentsOf: contentType.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
        var head = ByteBuffer()
        head.writeString("--\(boundary)\r\n")
        head.writeString("Content-Disposition: form-data; name=\"\(Self.escaped(name))\"; filename=\"\(Self.escaped(filename))\"\r\n")
        head.writeString("Content-Type: \(type)\r\n\r\n")
        append(head)
        segments.append(.file(source))
        append(ByteBuffer(string: "\r\n"))
    }

    /// The closing boundary.
    private var closing: ByteBuffer { ByteBuffer(string: "--\(boundary)--\r\n") }

    /// The size of the whole body, when every file's source knows its size.
    public var length: Int64? {
        var total = Int64(closing.readableBytes)
        for segment in segments {
            switch segment {
            case .bytes(let buffer): total += Int64(buffer.readableBytes)
            case .file(let source):
                guard let length = source.length else { return nil }
                total += length
            }
        }
        return total
    }

    /// Whether every file's source can be read again.
    public var isReplayable: Bool {
        segments.allSatisfy { segment in
            if case .file(let source) = segment { return source.isReplayable }
            return true
        }
    }

    /// The body from its start: the fields and framing from memory, each file from a fresh
    /// stream of its source, read as the transport asks for more.
    ///
    /// A file whose source yields more or fewer bytes than its `length` fails the stream with
    /// `ProviderError.Code.io` (a file that changed while it was sent), since the body's
    /// `Content-Length` and framing would no longer hold.
    public func makeStream() throws -> UploadStream {
        UploadStream(Pieces(segments: segments + [.bytes(closing)]))
    }

    /// Appends framing or a field, joining it to the bytes before it.
    private mutating func append(_ buffer: ByteBuffer) {
        if case .bytes(var previous) = segments.last {
            var buffer = buffer
            previous.writeBuffer(&buffer)
            segments[segments.count - 1] = .bytes(previous)
        } else {
            segments.append(.bytes(buffer))
        }
    }

    /// `text` with `"`, CR and LF percent-encoded, for a quoted name in `Content-Disposition`.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// The body's pieces in order, each file's read from its own stream.
    private struct Pieces: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let segments: [Segment]

        func makeAsyncIterator() -> Iterator { Iterator(segments: segments) }

        struct Iterator: AsyncIteratorProtocol {
            let segments: [Segment]
            var index = 0
            var file: UploadStream.AsyncIterator?
            var expected: Int64?
            var sent: Int64 = 0

            init(segments: [Segment]) { self.segments = segments }

            mutating func next() async throws -> ByteBuffer? {
                while index < segments.count {
                    if var stream = file {
                        let piece = try await stream.next()
                        file = stream
                        if let piece {
                            sent += Int64(piece.readableBytes)
                            if let expected, sent > expected { throw Self.changed(expected, sent) }
                            return piece
                        }
                        if let expected, sent != expected { throw Self.changed(expected, sent) }
                        file = nil
                        index += 1
                        continue
                    }
                    switch segments[index] {
                    case .bytes(let buffer):
                        index += 1
                        return buffer
                    case .file(let source):
                        file = try source.makeStream().makeAsyncIterator()
                        expected = source.length
                        sent = 0
                    }
                }
                return nil
            }

            private static func changed(_ expected: Int64, _ sent: Int64) -> ProviderError {
                ProviderError(.io, "a file of the form has \(sent < expected ? "fewer" : "more") bytes than the \(expected) it declared")
            }
        }
    }
}
