import Foundation
import NIOCore

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
/// failure so that a later download with ``DownloadOptions/resume`` continues it.
///
/// The side files are never written or read through a symlink (see
/// ``begin(offset:expectedLength:validator:)``), and the final rename replaces whatever
/// is at the final name, a symlink included, instead of writing through it.
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
    private var written: Int64 = 0

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
    /// - Throws: ``ProviderError/Code/invalidArgument`` if `name` could escape the folder
    ///   (contains `/`, NUL, or is `.`/`..`).
    public init(folder: URL, name: String, resumable: Bool = false, overwrite: Bool = true) throws {
        try ItemPath.validate(name: name)
        self.init(url: folder.appendingPathComponent(name, isDirectory: false), resumable: resumable, overwrite: overwrite)
    }

    public func resumePoint() async throws -> ResumePoint? {
        // lstat: a symlink planted at the side name is no partial download of ours, nor is a file
        // hard-linked from elsewhere (appending to it would write into that other file).
        guard resumable, let length = PosixFile.regularFileSize(atPath: partialURL.path, soleLink: true), length > 0 else { return nil }
        let validator = PosixFile.readSmallRegular(validatorURL.path).flatMap { String(bytes: $0, encoding: .utf8) }
        return ResumePoint(length: length, validator: validator?.isEmpty == false ? validator : nil)
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
        if !overwrite, PosixFile.exists(url.path) {
            throw ProviderError(.alreadyExists, "\(url.path) already exists")
        }
        if offset > 0, file != nil, written == offset { return }
        file?.closeNow()
        file = nil
        if offset == 0 {
            file = try PosixFile.createFresh(partialURL.path, mode: 0o644)
            written = 0
            if resumable {
                if let validator {
                    if let side = try? PosixFile.createFresh(validatorURL.path, mode: 0o600) {
                        try? side.write(ByteBuffer(string: validator))
                        side.closeNow()
                    }
                } else {
                    PosixFile.remove(validatorURL.path)
                }
            }
        } else {
            let handle = try PosixFile.openRegular(partialURL.path, flags: O_WRONLY | O_APPEND)
            guard try handle.linkCount() == 1 else {
                throw ProviderError(.invalidArgument, "cannot resume into \(partialURL.path): another name links to the same file")
            }
            let size = try handle.size()
            guard size == offset else {
                throw ProviderError(.conflict, "partial file has \(size) bytes, the server resumes at \(offset)")
            }
            file = handle
            written = offset
        }
    }

    public func write(_ buffer: ByteBuffer) async throws {
        guard let file else { throw ProviderError(.invalidArgument, "write before begin") }
        try file.write(buffer)
        written += Int64(buffer.readableBytes)
    }

    public func finish() async throws {
        guard let file else { throw ProviderError(.invalidArgument, "finish before begin") }
        if durable { try file.sync() }
        file.closeNow()
        self.file = nil
        if overwrite {
            try PosixFile.rename(partialURL.path, url.path)
        } else {
            try PosixFile.renameNoReplace(partialURL.path, url.path)
        }
        PosixFile.remove(validatorURL.path)
    }

    public func fail() async {
        file?.closeNow()
        file = nil
        if !resumable {
            PosixFile.remove(partialURL.path)
            PosixFile.remove(validatorURL.path)
        }
    }
}
