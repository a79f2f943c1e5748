import Foundation
import NIOCore
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sink that streams a download into a local file.
///
/// Bytes go to `<name>.strata-partial` beside the target, and only a complete,
/// verified body is renamed to the final name, so a failure or a cancellation
/// never leaves a partial file under it. With `resumable`, the partial file
/// (and the etag it came from, in `<name>.strata-partial.etag`) is kept after a
/// failure so that a later download with `DownloadOptions.resume` continues it.
///
/// The side files are never written or read through a symlink (see
/// ``begin(offset:expectedLength:validator:)``), and the final rename replaces whatever
/// is at the final name, a symlink included, instead of writing through it.
///
/// The file is opened, written, flushed and renamed on swift-nio's blocking thread pool
/// (`BlockingIO`), never on the thread of the task that calls the sink (an event loop, or one of
/// Swift's few cooperative threads): pieces are gathered into batches of about 1 MiB, each
/// written in one hop to the pool, and ``finish()`` writes the rest, flushes and renames in one more.
public actor FileSink: DownloadSink {
    /// The final file.
    public nonisolated let url: URL
    /// Whether a failed download keeps its partial file for a later resume.
    public nonisolated let resumable: Bool
    /// Whether an existing file at ``url`` may be replaced.
    public nonisolated let overwrite: Bool
    /// Whether to flush the file to stable storage before renaming it.
    public nonisolated let durable: Bool

    private var file: PosixFile?
    /// Bytes taken since the current download began (written, or gathered in `pending`).
    private var written: Int64 = 0
    /// Pieces taken and not yet written: they go to the file in one hop to the blocking thread
    /// pool per batch (see `BlockingIO`), never on the caller's thread.
    private var pending = WriteBatch()
    /// Called on the thread that writes, before each batch and before the final flush (tests
    /// watch where the writing runs).
    private var willWrite: (@Sendable () -> Void)?

    /// Sets what ``write(_:)`` and ``finish()`` call on their writing thread before each batch.
    func watchWrites(_ observer: @escaping @Sendable () -> Void) { willWrite = observer }

    /// The side file the body is written to.
    public nonisolated var partialURL: URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".strata-partial")
    }
    private nonisolated var validatorURL: URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".strata-partial.etag")
    }

    /// A sink writing to `url`.
    public init(url: URL, resumable: Bool = false, overwrite: Bool = true, durable: Bool = true) {
        self.url = url
        self.resumable = resumable
        self.overwrite = overwrite
        self.durable = durable
    }

    /// A sink writing the file `name` inside `folder`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` if `name` could escape the folder
    ///   (contains `/`, NUL, or is `.`/`..`).
    public init(folder: URL, name: String, resumable: Bool = false, overwrite: Bool = true) throws {
        try ItemPath.validate(name: name)
        self.init(url: folder.appendingPathComponent(name, isDirectory: false), resumable: resumable, overwrite: overwrite)
    }

    public func resumePoint() async throws -> ResumePoint? {
        guard resumable else { return nil }
        let partial = partialURL.path
        let validatorPath = validatorURL.path
        return try await BlockingIO.run { () -> ResumePoint? in
            // lstat: a symlink planted at the side name is no partial download of ours, nor is a file
            // hard-linked from elsewhere (appending to it would write into that other file).
            guard let length = PosixFile.regularFileSize(atPath: partial, soleLink: true), length > 0 else { return nil }
            let validator = PosixFile.readSmallRegular(validatorPath).flatMap { String(bytes: $0, encoding: .utf8) }
            return ResumePoint(length: length, validator: validator?.isEmpty == false ? validator : nil)
        }
    }

    /// Opens the side file.
    ///
    /// At offset 0 the side file is made anew: whatever was at its name is removed (a stale
    /// regular file, or a symlink: the link itself, never its target) and the file is created
    /// with `O_CREAT | O_EXCL | O_NOFOLLOW`, so the bytes never go through a symlink, a hard
    /// link to another file, or a name planted in between; anything else at the name (a
    /// folder, a FIFO) is refused. It gets the mode a new file normally has (`0644` less the
    /// umask), which the final file keeps. At a later offset (a resume) the side file must be
    /// a regular file with no other hard link, opened with `O_NOFOLLOW`, holding exactly `offset` bytes; within one
    /// download (a cut body continued) the open file simply goes on.
    public func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        if offset > 0, file != nil, written == offset {
            // A cut body continued within the same download: the open file goes on, unless the
            // final name has been taken since and may not be replaced.
            let path = url.path
            if !overwrite, try await BlockingIO.run({ PosixFile.exists(path) }) {
                throw ProviderError(.alreadyExists, "\(path) already exists")
            }
            return
        }
        let previous = file
        file = nil
        // At 0 the bytes gathered for the old side file are dropped with it; a resume elsewhere
        // first writes them, so the side file holds all it was given before its size is checked.
        let unwritten = offset == 0 ? [] : pending.take()
        pending = WriteBatch()
        let (url, partial, validatorPath, overwrite, resumable) = (url, partialURL.path, validatorURL.path, overwrite, resumable)
        file = try await BlockingIO.run { () -> PosixFile in
            if let previous {
                defer { previous.closeNow() }
                for piece in unwritten { try previous.write(piece) }
            }
            if !overwrite, PosixFile.exists(url.path) {
                throw ProviderError(.alreadyExists, "\(url.path) already exists")
            }
            if offset == 0 {
                let file = try PosixFile.createFresh(partial, mode: 0o644)
                if resumable {
                    if let validator {
                        if let side = try? PosixFile.createFresh(validatorPath, mode: 0o600) {
                            try? side.write(ByteBuffer(string: validator))
                            side.closeNow()
                        }
                    } else {
                        PosixFile.remove(validatorPath)
                    }
                }
                return file
            }
            let handle = try PosixFile.openRegular(partial, flags: O_WRONLY | O_APPEND)
            guard try handle.linkCount() == 1 else {
                throw ProviderError(.invalidArgument, "cannot resume into \(partial): another name links to the same file")
            }
            let size = try handle.size()
            guard size == offset else {
                throw ProviderError(.conflict, "partial file has \(size) bytes, the server resumes at \(offset)")
            }
            return handle
        }
        written = offset
    }

    /// Takes a piece of the body; pieces are written in batches of about 1 MiB, each in one hop to
    /// the blocking thread pool, and the rest by ``finish()`` (or, for a resumable sink, ``fail()``).
    public func write(_ buffer: ByteBuffer) async throws {
        guard let file else { throw ProviderError(.invalidArgument, "write before begin") }
        written += Int64(buffer.readableBytes)
        guard pending.append(buffer) else { return }
        let (pieces, willWrite) = (pending.take(), willWrite)
        try await BlockingIO.run {
            willWrite?()
            for piece in pieces { try file.write(piece) }
        }
    }

    public func finish() async throws {
        guard let file else { throw ProviderError(.invalidArgument, "finish before begin") }
        self.file = nil
        let (pieces, willWrite) = (pending.take(), willWrite)
        let (url, partial, validatorPath, overwrite, durable) = (url, partialURL.path, validatorURL.path, overwrite, durable)
        try await BlockingIO.run {
            defer { file.closeNow() }
            willWrite?()
            for piece in pieces { try file.write(piece) }
            if durable { try file.sync() }
            file.closeNow()
            if overwrite {
                try PosixFile.rename(partial, url.path)
            } else {
                try PosixFile.renameNoReplace(partial, url.path)
            }
            PosixFile.remove(validatorPath)
        }
    }

    public func fail() async {
        let file = self.file
        self.file = nil
        // A resumable sink keeps what it was given: the side file stays a prefix of the content.
        let pieces = resumable ? pending.take() : []
        pending = WriteBatch()
        let (partial, validatorPath, resumable) = (partialURL.path, validatorURL.path, resumable)
        await BlockingIO.cleanUp {
            if let file {
                do { for piece in pieces { try file.write(piece) } } catch {}
                file.closeNow()
            }
            if !resumable {
                PosixFile.remove(partial)
                PosixFile.remove(validatorPath)
            }
        }
    }
}
