import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `lstat` says is at `url`: "file", "link", "fifo", "dir" or "none".
private func kind(_ url: URL) -> String {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return "none" }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return "file"
    case S_IFLNK: return "link"
    case S_IFIFO: return "fifo"
    case S_IFDIR: return "dir"
    default: return "other"
    }
}

/// The process's umask, read without changing it where the system tells it (Linux), since
/// tests run in parallel threads of one process.
private func currentUmask() -> mode_t {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
        let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
    {
        return value
    }
    let mask = umask(0o022)
    umask(mask)
    return mask
}

private func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

@Suite("FileSink side files and symlinks")
struct FileSinkSymlinkTests {
    /// Runs a whole download of `body` into `sink`.
    private func deliver(_ body: String, to sink: FileSink, validator: String? = nil) async throws {
        try await sink.begin(offset: 0, expectedLength: Int64(body.utf8.count), validator: validator)
        try await sink.write(ByteBuffer(string: body))
        try await sink.finish()
    }

    @Test("a symlink at the partial name pointing outside the folder is not written through")
    func partialSymlink() async throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        defer { dir.remove(); outside.remove() }
        try "precious".write(to: outside.file("victim"), atomically: false, encoding: .utf8)
        let sink = FileSink(url: dir.file("out.bin"))
        try FileManager.default.createSymbolicLink(at: sink.partialURL, withDestinationURL: outside.file("victim"))
        try await deliver("downloaded", to: sink)
        #expect(try text(outside.file("victim")) == "precious")
        #expect(kind(dir.file("out.bin")) == "file")
        #expect(try text(dir.file("out.bin")) == "downloaded")
        #expect(try dir.contents() == ["out.bin"])
    }

    @Test("a symlink at the partial name to a missing file creates nothing outside")
    func partialDanglingSymlink() async throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        defer { dir.remove(); outside.remove() }
        let sink = FileSink(url: dir.file("out.bin"))
        try FileManager.default.createSymbolicLink(at: sink.partialURL, withDestinationURL: outside.file("planted"))
        try await deliver("downloaded", to: sink)
        #expect(try outside.contents() == [])
        #expect(try text(dir.file("out.bin")) == "downloaded")
    }

    @Test("a stale partial hard-linked to another file is replaced, not truncated")
    func partialHardLink() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try "precious".write(to: dir.file("other"), atomically: false, encoding: .utf8)
        let sink = FileSink(url: dir.file("out.bin"))
        #expect(link(dir.file("other").path, sink.partialURL.path) == 0)
        try await deliver("downloaded", to: sink)
        #expect(try text(dir.file("other")) == "precious")
        #expect(try text(dir.file("out.bin")) == "downloaded")
    }

    @Test("a FIFO at the partial name is refused")
    func partialFIFO() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("out.bin"))
        #expect(mkfifo(sink.partialURL.path, 0o600) == 0)
        let error = await #expect(throws: ProviderError.self) {
            try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        }
        #expect(error?.code == .alreadyExists)
        #expect(kind(sink.partialURL) == "fifo")
        #expect(kind(dir.file("out.bin")) == "none")
    }

    @Test("a resumable sink does not resume from, or append through, a symlinked partial")
    func resumeThroughSymlink() async throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        defer { dir.remove(); outside.remove() }
        try "precious".write(to: outside.file("victim"), atomically: false, encoding: .utf8)
        let sink = FileSink(url: dir.file("out.bin"), resumable: true)
        try FileManager.default.createSymbolicLink(at: sink.partialURL, withDestinationURL: outside.file("victim"))
        #expect(try await sink.resumePoint() == nil)
        await #expect(throws: ProviderError.self) { try await sink.begin(offset: 8, expectedLength: nil, validator: nil) }
        #expect(try text(outside.file("victim")) == "precious")
    }

    @Test("a symlink at the etag side file is neither read nor written through")
    func validatorSymlink() async throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        defer { dir.remove(); outside.remove() }
        try "\"secret-etag\"".write(to: outside.file("victim"), atomically: false, encoding: .utf8)
        let sink = FileSink(url: dir.file("out.bin"), resumable: true)
        let etag = dir.file("out.bin.strata-partial.etag")
        try FileManager.default.createSymbolicLink(at: etag, withDestinationURL: outside.file("victim"))
        try Data("abc".utf8).write(to: sink.partialURL)
        // Read: a symlinked validator is ignored.
        #expect(try await sink.resumePoint() == ResumePoint(length: 3, validator: nil))
        // Written: the link is replaced by a file of ours.
        try await sink.begin(offset: 0, expectedLength: nil, validator: "\"v1\"")
        try await sink.write(ByteBuffer(string: "do"))
        await sink.fail()
        #expect(try text(outside.file("victim")) == "\"secret-etag\"")
        #expect(kind(etag) == "file")
        #expect(try text(etag) == "\"v1\"")
        #expect(try await sink.resumePoint() == ResumePoint(length: 2, validator: "\"v1\""))
    }

    @Test("a symlink at the final name is replaced, not followed")
    func finalSymlink() async throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        defer { dir.remove(); outside.remove() }
        try "precious".write(to: outside.file("victim"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: dir.file("out.bin"), withDestinationURL: outside.file("victim"))
        try await deliver("downloaded", to: FileSink(url: dir.file("out.bin")))
        #expect(try text(outside.file("victim")) == "precious")
        #expect(kind(dir.file("out.bin")) == "file")
        #expect(try text(dir.file("out.bin")) == "downloaded")
    }

    @Test("without overwrite, even a dangling symlink at the final name counts as taken and is left alone")
    func finalDanglingSymlinkNoOverwrite() async throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        defer { dir.remove(); outside.remove() }
        try FileManager.default.createSymbolicLink(at: dir.file("out.bin"), withDestinationURL: outside.file("planted"))
        let sink = FileSink(url: dir.file("out.bin"), overwrite: false)
        let error = await #expect(throws: ProviderError.self) { try await deliver("downloaded", to: sink) }
        #expect(error?.code == .alreadyExists)
        #expect(kind(dir.file("out.bin")) == "link")
        #expect(try outside.contents() == [])
    }

    @Test("the downloaded file gets the usual mode of a new file")
    func mode() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await deliver("x", to: FileSink(url: dir.file("out.bin")))
        let mask = currentUmask()
        var info = stat()
        #expect(lstat(dir.file("out.bin").path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o644 & ~mask)
    }
}
