import Foundation
import NIOCore
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sink that streams a download straight into an open file descriptor: standard
/// output, a pipe, a socket or a device such as `/dev/null`.
///
/// Unlike ``FileSink`` there is no side file and no rename: bytes reach the
/// descriptor as they arrive (in batches of about 1 MiB, written on swift-nio's blocking thread
/// pool, see ``BlockingIO``), so a failure leaves whatever was written there
/// (a reader of a pipe sees a short stream and the download's error). Resume of an
/// earlier download is not offered; a body cut in the middle is still continued within the
/// same download (`DownloadOptions.maxResumes`), since the stream then goes on exactly where
/// it stopped. The sink never closes the descriptor unless asked to, so one sink such as
/// ``standardOutput`` can take several downloads in a row.
///
/// ```swift
/// _ = try await dav.download("/big.iso", to: DescriptorSink.standardOutput, options: DownloadOptions())
/// ```
package actor DescriptorSink: DownloadSink {
    /// The descriptor written to.
    package nonisolated let descriptor: Int32
    private let closesWhenDone: Bool
    private let label: String
    private var closed = false
    /// Bytes taken since the current download began (written, or gathered in `pending`).
    private var written: Int64 = 0
    /// Pieces taken and not yet written: they go to the descriptor in one hop to the blocking
    /// thread pool per batch (``BlockingIO``), never on the caller's thread.
    private var pending = WriteBatch()

    /// A sink writing to standard output.
    package static var standardOutput: DescriptorSink { DescriptorSink(descriptor: STDOUT_FILENO, label: "standard output") }

    /// A sink writing to `descriptor`; with `closesWhenDone` it is closed after ``finish()`` or ``fail()``.
    package init(descriptor: Int32, closesWhenDone: Bool = false, label: String = "output") {
        self.descriptor = descriptor
        self.closesWhenDone = closesWhenDone
        self.label = label
    }

    /// A sink writing to the existing file or device at `path` (opened for writing, not truncated
    /// unless `truncate`); the descriptor is closed when the download ends.
    package init(path: String, truncate: Bool = false) throws {
        let flags = O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0)
        let fd = path.withCString { open($0, flags) }
        guard fd >= 0 else { throw PosixFile.providerError("open", path) }
        self.init(descriptor: fd, closesWhenDone: true, label: path)
    }

    package func resumePoint() async throws -> ResumePoint? { nil }

    package func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        // The bytes already written are final (a pipe cannot seek back), so the only offset a
        // download may continue at is the one this stream has reached: an automatic resume of a
        // cut body in the same call. Anything else starts a new download at 0.
        guard offset == 0 || offset == written else {
            throw ProviderError(.unsupported, "\(label) cannot take a download resumed at byte \(offset)")
        }
        if offset == 0 { written = 0 }
    }

    /// Takes a piece of the body; pieces are written in batches of about 1 MiB, each in one hop
    /// to the blocking thread pool, and the rest by ``finish()`` or ``fail()``.
    package func write(_ buffer: ByteBuffer) async throws {
        guard !closed else { throw ProviderError(.invalidArgument, "write after the end of the download") }
        written += Int64(buffer.readableBytes)
        guard pending.append(buffer) else { return }
        try await flush()
    }

    package func finish() async throws {
        try await flush()
        await end()
    }

    /// Writes what was taken (a reader of the stream gets every byte that arrived before the
    /// failure, as it would have without the batching), then ends.
    package func fail() async {
        try? await flush()
        await end()
    }

    private func flush() async throws {
        let pieces = pending.take()
        guard !pieces.isEmpty else { return }
        let (descriptor, label) = (descriptor, label)
        try await BlockingIO.run {
            for piece in pieces { try PosixFile.writeAll(piece, to: descriptor, action: "write to", path: label) }
        }
    }

    private func end() async {
        pending = WriteBatch()
        guard closesWhenDone, !closed else { return }
        closed = true
        let descriptor = descriptor
        await BlockingIO.cleanUp { _ = close(descriptor) }
    }
}
