import Foundation
import NIOCore

/// Where an upload's bytes come from.
///
/// A source hands out a fresh ``UploadStream`` for each attempt. A replayable
/// source (a file, bytes in memory) can be sent again after a retry, a
/// redirect or a re-login; a one-shot source (an arbitrary async sequence)
/// cannot, and a request carrying one is never retried.
///
/// ProviderKit's `FileSource` uploads a local file.
///
/// ## Topics
/// - ``DataSource``
/// - ``AsyncSequenceSource``
public protocol UploadSource: Sendable {
    /// The length in bytes, when known in advance.
    var length: Int64? { get }
    /// Whether ``makeStream()`` may be called more than once.
    var isReplayable: Bool { get }
    /// A stream of the bytes, from the start.
    func makeStream() throws -> UploadStream
    /// A stream of the bytes from `offset` (`0` is the start) to the end, or `nil` when this source
    /// can only be read from its start.
    ///
    /// An adapter resuming an upload (see ``UploadCheckpoints``) asks for the rest of the content
    /// after the part the server already holds; given `nil`, it reads from the start and skips that
    /// part, or starts the upload over. A one-shot source may hand out one stream in all, whichever
    /// of the two calls makes it. The default makes no stream from an offset other than `0`.
    ///
    /// - Throws: the source's error when it cannot make the stream, or when `offset` is past its end.
    func makeStream(from offset: Int64) throws -> UploadStream?
}

extension UploadSource {
    /// By default a source streams from its start only: ``makeStream()`` for `0`, `nil` otherwise.
    public func makeStream(from offset: Int64) throws -> UploadStream? {
        offset == 0 ? try makeStream() : nil
    }
}

/// A type-erased, pull-driven stream of upload bytes: the next piece is read only when
/// the transport asks for it, so memory stays flat whatever the size.
public struct UploadStream: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    private let makeNext: @Sendable () -> (@Sendable () async throws -> ByteBuffer?)

    /// Wraps a sequence of byte buffers.
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == ByteBuffer {
        makeNext = {
            let box = IteratorBox(sequence.makeAsyncIterator())
            return { try await box.next() }
        }
    }

    /// Wraps a function called for each next piece; `nil` ends the stream.
    public init(next: @escaping @Sendable () async throws -> ByteBuffer?) {
        makeNext = { next }
    }

    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let next: @Sendable () async throws -> ByteBuffer?
        public mutating func next() async throws -> ByteBuffer? { try await next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(next: makeNext()) }
}

/// Holds a non-Sendable iterator for the one consumer of an ``UploadStream``'s iterator.
///
/// `@unchecked Sendable` is safe here because the box is made inside `makeAsyncIterator()` and
/// reached only through that one iterator's `next()`, which (as for any async iterator) is
/// never called again before the previous call returned: the iterator is never used by two
/// tasks at once. A lock cannot guard it instead, since `next()` suspends while it holds it.
private final class IteratorBox<I: AsyncIteratorProtocol>: @unchecked Sendable where I.Element == ByteBuffer {
    private var iterator: I
    init(_ iterator: I) { self.iterator = iterator }
    func next() async throws -> ByteBuffer? { try await iterator.next() }
}

/// A source that can hand over its bytes at once: a transport sends a small body as one
/// buffer instead of a stream, sparing the hand-offs between tasks and threads a streamed
/// body costs on every request (most of the time of 1,000 small uploads).
package protocol WholeBodySource: UploadSource {
    /// All ``UploadSource/length`` bytes in one buffer.
    ///
    /// A source that reads them from storage does so off the caller's thread (ProviderKit's
    /// `FileSource` reads on swift-nio's blocking thread pool), hence `async`.
    func wholeBody() async throws -> ByteBuffer
}

/// Uploads bytes held in memory.
public struct DataSource: UploadSource {
    /// The bytes.
    package let buffer: ByteBuffer
    public var length: Int64? { Int64(buffer.readableBytes) }
    public var isReplayable: Bool { true }

    /// A source for `data`.
    public init(_ data: Data) { buffer = ByteBuffer(bytes: data) }
    /// A source for `bytes`.
    public init(bytes: [UInt8]) { buffer = ByteBuffer(bytes: bytes) }
    /// A source for the UTF-8 of `string`.
    public init(string: String) { buffer = ByteBuffer(string: string) }
    /// A source for the readable bytes of `buffer`, sent as they are: the stream's pieces are
    /// slices sharing its storage, nothing is copied.
    public init(buffer: ByteBuffer) { self.buffer = buffer }

    public func makeStream() throws -> UploadStream {
        let chunk = 256 << 10
        let state = SliceState(buffer)
        return UploadStream { await state.next(chunk) }
    }

    /// The bytes from `offset` on, as slices of the same storage.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` when `offset` is negative or past the end.
    public func makeStream(from offset: Int64) throws -> UploadStream? {
        guard offset >= 0, offset <= Int64(buffer.readableBytes) else {
            throw ProviderError(.invalidArgument, "offset \(offset) is outside the \(buffer.readableBytes) bytes of the source")
        }
        let chunk = 256 << 10
        let state = SliceState(buffer.getSlice(at: buffer.readerIndex + Int(offset), length: buffer.readableBytes - Int(offset)) ?? ByteBuffer())
        return UploadStream { await state.next(chunk) }
    }
}

extension DataSource: WholeBodySource {
    package func wholeBody() throws -> ByteBuffer { buffer }
}

private actor SliceState {
    var buffer: ByteBuffer
    init(_ buffer: ByteBuffer) { self.buffer = buffer }
    func next(_ size: Int) -> ByteBuffer? {
        guard buffer.readableBytes > 0 else {
            buffer = ByteBuffer()  // the source's storage is no longer held here once the stream ends
            return nil
        }
        return buffer.readSlice(length: min(size, buffer.readableBytes))
    }
}

/// Uploads from an async sequence that can be read once, such as a pipe or a generator.
public struct AsyncSequenceSource<Base: AsyncSequence & Sendable>: UploadSource where Base.Element == ByteBuffer {
    /// The sequence.
    package let base: Base
    /// The length, if the caller knows it.
    public let length: Int64?
    public var isReplayable: Bool { false }

    /// A one-shot source over `base`.
    public init(_ base: Base, length: Int64? = nil) {
        self.base = base
        self.length = length
    }

    public func makeStream() throws -> UploadStream { UploadStream(base) }
}
