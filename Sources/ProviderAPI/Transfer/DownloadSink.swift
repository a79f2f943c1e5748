import Foundation
import NIOCore

/// Bytes a sink already holds from an interrupted download.
public struct ResumePoint: Sendable, Hashable {
    /// How many bytes are held.
    public var length: Int64
    /// What names the content they came from, as the provider gave it to
    /// ``DownloadSink/begin(offset:expectedLength:validator:)``: its strong etag, or another
    /// validator the provider defines (HTTP adapters keep a strong `Last-Modified` date).
    /// Bytes without a validator are never continued.
    public var validator: String?

    /// Creates a resume point.
    public init(length: Int64, validator: String?) {
        self.length = length
        self.validator = validator
    }
}

/// Where a download's bytes go.
///
/// A provider calls ``begin(offset:expectedLength:validator:)`` once the server has
/// answered, ``write(_:)`` for each piece of the body in order, then exactly one of
/// ``finish()`` or ``fail()``. A sink must never expose a partial body under its final
/// name: ProviderKit's `FileSink` writes to a side file and renames it on ``finish()``.
///
/// ## Topics
/// - ``MemorySink``
public protocol DownloadSink: Sendable {
    /// The bytes already held from an earlier interrupted download, if the sink keeps any.
    func resumePoint() async throws -> ResumePoint?
    /// The body starts at `offset` of the content (0 means start over and drop anything held).
    ///
    /// Called again, without ``fail()`` between, when a cut download is continued within the same
    /// call: `offset` is then the number of bytes the sink has taken so far, and the sink goes on
    /// appending. A sink that holds a different number of bytes throws.
    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws
    /// Appends a piece of the body.
    func write(_ buffer: ByteBuffer) async throws
    /// The body is complete.
    func finish() async throws
    /// The download failed or was cancelled.
    func fail() async
}

/// A sink that collects the body in memory, up to a limit.
public actor MemorySink: DownloadSink {
    private var buffer = ByteBuffer()
    private let limit: Int
    /// Whether ``finish()`` was called.
    package private(set) var isFinished = false

    /// Creates a sink that refuses bodies larger than `limit` bytes.
    public init(limit: Int = 64 << 20) { self.limit = limit }

    /// The bytes received.
    public var bytes: [UInt8] { Array(buffer.readableBytesView) }
    /// The bytes received, as `Data`.
    public var data: Data { Data(buffer.readableBytesView) }

    public func resumePoint() async throws -> ResumePoint? {
        buffer.readableBytes > 0 ? ResumePoint(length: Int64(buffer.readableBytes), validator: nil) : nil
    }

    public func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        if offset == 0 {
            buffer.clear()
        } else if offset != Int64(buffer.readableBytes) {
            throw ProviderError(.conflict, "the memory sink holds \(buffer.readableBytes) bytes, the body resumes at \(offset)")
        }
        isFinished = false
    }

    public func write(_ piece: ByteBuffer) async throws {
        guard buffer.readableBytes + piece.readableBytes <= limit else {
            throw ProviderError(.invalidArgument, "download larger than the memory sink's limit of \(limit) bytes")
        }
        var piece = piece
        buffer.writeBuffer(&piece)
    }

    public func finish() async throws { isFinished = true }
    public func fail() async {}
}
