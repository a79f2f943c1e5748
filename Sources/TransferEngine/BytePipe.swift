import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI

/// A bounded, in-memory pipe from one download into one upload: the download's sink writes into
/// it and waits while it holds ``capacity`` bytes; the upload's stream reads from it. Whole files
/// are never held, only what the slower side has not taken yet.
///
/// The first failure on either side (``fail(_:)``) wakes both and is what both then see, so the
/// error that stopped a copy is the one that happened first, not its echo on the other side.
actor BytePipe {
    /// The most bytes held before a write waits.
    let capacity: Int
    /// The length the content must have, when the source said.
    let expectedLength: Int64?
    private var pieces: [ByteBuffer] = []
    private var head = 0
    private var buffered = 0
    private var writerFinished = false
    private var readerClosed = false
    private(set) var failure: ProviderError?
    private(set) var written: Int64 = 0
    private(set) var read: Int64 = 0
    private var waitingWriter: CheckedContinuation<Void, any Error>?
    private var waitingReader: CheckedContinuation<ByteBuffer?, any Error>?
    /// Called with the bytes read so far after each piece the upload takes.
    private let onRead: @Sendable (Int64) -> Void

    init(capacity: Int, expectedLength: Int64?, onRead: @escaping @Sendable (Int64) -> Void = { _ in }) {
        self.capacity = max(capacity, 1)
        self.expectedLength = expectedLength
        self.onRead = onRead
    }

    /// Where the content passed through the pipe starts: `0`, or the byte an upload resumed at
    /// (the download is then a range from there, and ``written`` and ``read`` count from it).
    private(set) var origin: Int64 = 0

    /// The content starts at `offset`, before anything was written: the upload resumes there.
    func start(at offset: Int64) throws {
        if let failure { throw failure }
        guard written == origin, read == origin, offset >= 0, expectedLength.map({ offset <= $0 }) ?? true else {
            throw fail(ProviderError(.conflict, "the copy cannot start at byte \(offset) once bytes passed"))
        }
        origin = offset
        written = offset
        read = offset
    }

    /// The download starts (again) at `offset` of what it sends (of the range from ``origin``):
    /// only where the pipe has got to is acceptable.
    func begin(offset: Int64) throws {
        if let failure { throw failure }
        guard origin + offset == written else {
            throw ProviderError(.conflict, "the download restarted at byte \(offset), but \(written) bytes were already passed on to the upload")
        }
    }

    /// Hands a piece to the upload, waiting while the pipe is full.
    func write(_ piece: ByteBuffer) async throws {
        if let failure { throw failure }
        guard piece.readableBytes > 0 else { return }
        if readerClosed { throw fail(ProviderError(.integrity, "the source sent more bytes than the upload took")) }
        let (total, overflow) = written.addingReportingOverflow(Int64(piece.readableBytes))
        if overflow || expectedLength.map({ total > $0 }) == true {
            throw fail(ProviderError(.integrity, "the source sent more than the \(expectedLength ?? 0) bytes it declared"))
        }
        while buffered >= capacity, failure == nil, !readerClosed {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in waitingWriter = continuation }
            } onCancel: {
                Task { await self.fail(ProviderError(.cancelled, "cancelled")) }
            }
        }
        if let failure { throw failure }
        if readerClosed { throw fail(ProviderError(.integrity, "the source sent more bytes than the upload took")) }
        written = total
        if let reader = waitingReader {
            waitingReader = nil
            read += Int64(piece.readableBytes)
            onRead(read)
            reader.resume(returning: piece)
            return
        }
        pieces.append(piece)
        buffered += piece.readableBytes
    }

    /// The download is complete.
    func finish() throws {
        if let failure { throw failure }
        if let expectedLength, written != expectedLength {
            throw fail(ProviderError(.integrity, "the source sent \(written) bytes of the \(expectedLength) it declared"))
        }
        writerFinished = true
        if let reader = waitingReader {
            waitingReader = nil
            reader.resume(returning: nil)
        }
    }

    /// The next piece for the upload; `nil` at the end of the content.
    func next() async throws -> ByteBuffer? {
        if let failure { throw failure }
        if head < pieces.count {
            let piece = pieces[head]
            pieces[head] = ByteBuffer()
            head += 1
            if head == pieces.count {
                pieces.removeAll(keepingCapacity: true)
                head = 0
            }
            buffered -= piece.readableBytes
            read += Int64(piece.readableBytes)
            onRead(read)
            if buffered < capacity, let writer = waitingWriter {
                waitingWriter = nil
                writer.resume()
            }
            return piece
        }
        if writerFinished { return nil }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in waitingReader = continuation }
        } onCancel: {
            Task { await self.fail(ProviderError(.cancelled, "cancelled")) }
        }
    }

    /// The upload ended: a later write means the source had more bytes than the upload took.
    func closeReader() {
        readerClosed = true
        if let writer = waitingWriter {
            waitingWriter = nil
            writer.resume()
        }
    }

    /// Stops the pipe with `error`, unless it stopped already; returns the error that stopped it.
    @discardableResult
    func fail(_ error: ProviderError) -> ProviderError {
        if let failure { return failure }
        failure = error
        pieces.removeAll()
        buffered = 0
        head = 0
        if let writer = waitingWriter {
            waitingWriter = nil
            writer.resume(throwing: error)
        }
        if let reader = waitingReader {
            waitingReader = nil
            reader.resume(throwing: error)
        }
        return error
    }
}

/// The download side of a ``BytePipe``.
struct PipeSink: DownloadSink {
    let pipe: BytePipe

    func resumePoint() async throws -> ResumePoint? { nil }
    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws { try await pipe.begin(offset: offset) }
    func write(_ buffer: ByteBuffer) async throws { try await pipe.write(buffer) }
    func finish() async throws { try await pipe.finish() }
    /// The download's own error reaches the pipe when the download call throws it.
    func fail() async {}
}

/// The upload side of a ``BytePipe``: a one-shot source of the length the source item declared.
///
/// A source made with a ``PipeStart`` lets the upload choose where the content starts
/// (``makeStream(from:)``): the download, waiting on the start, then asks the source provider for
/// the range from there, so that a destination holding the first part of the file from an
/// earlier attempt receives only the rest.
struct PipeSource: UploadSource {
    let pipe: BytePipe
    let length: Int64?
    /// Where the upload says the content starts; `nil` when the download started already, from byte 0.
    var start: PipeStart? = nil
    var isReplayable: Bool { false }

    /// Whether the stream was made: the bytes can be read once only.
    let streamMade = NIOLockedValueBox(false)

    func makeStream() throws -> UploadStream {
        guard let stream = try makeStream(from: 0) else {
            throw ProviderError(.conflict, "a streamed copy cannot be sent twice: the upload asked for its bytes again")
        }
        return stream
    }

    func makeStream(from offset: Int64) throws -> UploadStream? {
        if offset != 0 {
            guard start != nil, offset > 0, length.map({ offset <= $0 }) ?? false else { return nil }
        }
        let first = streamMade.withLockedValue { made in
            defer { made = true }
            return !made
        }
        guard first else {
            throw ProviderError(.conflict, "a streamed copy cannot be sent twice: the upload asked for its bytes again")
        }
        start?.resolve(offset)
        let pipe = self.pipe
        return UploadStream { try await pipe.next() }
    }
}

/// Where the content of a copy starts, as the upload decides it: the download waits for it.
final class PipeStart: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int64?, Never>?)
        case decided(Int64?)
    }
    private let state = NIOLockedValueBox(State.waiting(nil))

    /// Decides the start: a byte offset, or `nil` for no download at all (the upload failed, or
    /// finished without reading). Only the first decision counts.
    func resolve(_ offset: Int64?) {
        let waiting = state.withLockedValue { state -> CheckedContinuation<Int64?, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .decided(offset)
            return continuation
        }
        waiting?.resume(returning: offset)
    }

    /// The start, once decided; `nil` when cancelled first.
    func offset() async -> Int64? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int64?, Never>) in
                let decided = state.withLockedValue { state -> Int64?? in
                    switch state {
                    case .decided(let offset): return .some(offset)
                    case .waiting:
                        state = .waiting(continuation)
                        return .none
                    }
                }
                if case .some(let offset) = decided { continuation.resume(returning: offset) }
            }
        } onCancel: {
            resolve(nil)
        }
    }
}
