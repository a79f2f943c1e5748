import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import Testing

@Suite("FileSink")
struct FileSinkTests {
    @Test("fail() never leaves a file under the final name")
    func failLeavesNothing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("a.txt"))
        try await sink.begin(offset: 0, expectedLength: 10, validator: "\"e\"")
        try await sink.write(ByteBuffer(string: "hello"))
        #expect(FileManager.default.fileExists(atPath: sink.partialURL.path))
        #expect(!FileManager.default.fileExists(atPath: dir.file("a.txt").path))
        await sink.fail()
        #expect(try dir.contents() == [])
    }

    @Test("fail() on a resumable sink keeps the partial file and its validator, not a final file")
    func failResumable() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("a.txt"), resumable: true)
        try await sink.begin(offset: 0, expectedLength: nil, validator: "\"etag-1\"")
        try await sink.write(ByteBuffer(string: "hel"))
        await sink.fail()
        #expect(try dir.contents() == ["a.txt.strata-partial", "a.txt.strata-partial.etag"])
        #expect(try await sink.resumePoint() == ResumePoint(length: 3, validator: "\"etag-1\""))
        // Continue where it stopped.
        try await sink.begin(offset: 3, expectedLength: 2, validator: "\"etag-1\"")
        try await sink.write(ByteBuffer(string: "lo"))
        try await sink.finish()
        #expect(try String(contentsOf: dir.file("a.txt"), encoding: .utf8) == "hello")
        #expect(try dir.contents() == ["a.txt"])
    }

    @Test("a non-resumable sink reports no resume point")
    func noResumePoint() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("a.txt"))
        try Data("abc".utf8).write(to: sink.partialURL)
        #expect(try await sink.resumePoint() == nil)
    }

    @Test("resuming at an offset the partial file does not have is a conflict")
    func resumeWrongSize() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("a.txt"), resumable: true)
        try Data("abc".utf8).write(to: sink.partialURL)
        let error = await #expect(throws: ProviderError.self) { try await sink.begin(offset: 5, expectedLength: nil, validator: nil) }
        #expect(error?.code == .conflict)
    }

    @Test("begin at 0 truncates an earlier partial file")
    func beginTruncates() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("a.txt"), resumable: true)
        try Data("stale stale stale".utf8).write(to: sink.partialURL)
        try await sink.begin(offset: 0, expectedLength: 3, validator: nil)
        try await sink.write(ByteBuffer(string: "new"))
        try await sink.finish()
        #expect(try String(contentsOf: dir.file("a.txt"), encoding: .utf8) == "new")
    }

    @Test("overwrite: false refuses an existing file and leaves it untouched")
    func noOverwrite() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data("original".utf8).write(to: dir.file("a.txt"))
        let sink = FileSink(url: dir.file("a.txt"), overwrite: false)
        let error = await #expect(throws: ProviderError.self) { try await sink.begin(offset: 0, expectedLength: nil, validator: nil) }
        #expect(error?.code == .alreadyExists)
        #expect(try String(contentsOf: dir.file("a.txt"), encoding: .utf8) == "original")
        #expect(try dir.contents() == ["a.txt"])
    }

    @Test("overwrite: false refuses a file that appears while downloading")
    func noOverwriteRace() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("a.txt"), overwrite: false)
        try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        try await sink.write(ByteBuffer(string: "downloaded"))
        try Data("someone else's".utf8).write(to: dir.file("a.txt"))
        let error = await #expect(throws: ProviderError.self) { try await sink.finish() }
        #expect(error?.code == .alreadyExists)
        #expect(try String(contentsOf: dir.file("a.txt"), encoding: .utf8) == "someone else's")
    }

    @Test("overwrite: true replaces an existing file")
    func overwrite() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Data("original".utf8).write(to: dir.file("a.txt"))
        let sink = FileSink(url: dir.file("a.txt"))
        try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        try await sink.write(ByteBuffer(string: "replaced"))
        try await sink.finish()
        #expect(try String(contentsOf: dir.file("a.txt"), encoding: .utf8) == "replaced")
        #expect(try dir.contents() == ["a.txt"])
    }

    @Test("an empty download makes an empty file")
    func empty() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("empty"))
        try await sink.begin(offset: 0, expectedLength: 0, validator: nil)
        try await sink.finish()
        #expect(try Data(contentsOf: dir.file("empty")).isEmpty)
    }

    @Test("write or finish before begin is refused")
    func outOfOrder() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = FileSink(url: dir.file("a.txt"))
        await #expect(throws: ProviderError.self) { try await sink.write(ByteBuffer(string: "x")) }
        await #expect(throws: ProviderError.self) { try await sink.finish() }
        #expect(try dir.contents() == [])
    }

    @Test("FileSink(folder:name:) refuses names that could escape the folder", arguments: ["..", ".", "a/b", "", "../x", "x\u{0}y", "/etc"])
    func refusesEscapingNames(_ name: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let inner = dir.url.appendingPathComponent("inner", isDirectory: true)
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        let error = #expect(throws: ProviderError.self) { try FileSink(folder: inner, name: name) }
        #expect(error?.code == .invalidArgument)
        #expect(try dir.contents() == ["inner"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: inner.path).isEmpty)
    }

    @Test("FileSink(folder:name:) writes inside the folder")
    func folderName() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sink = try FileSink(folder: dir.url, name: "..hidden but fine")
        #expect(sink.url.deletingLastPathComponent().standardizedFileURL.path == dir.url.standardizedFileURL.path)
        try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        try await sink.write(ByteBuffer(string: "x"))
        try await sink.finish()
        #expect(try dir.contents() == ["..hidden but fine"])
    }
}

@Suite("MemorySink")
struct MemorySinkTests {
    @Test("collects bytes; begin at 0 starts over; resume point is what it holds")
    func basics() async throws {
        let sink = MemorySink()
        #expect(try await sink.resumePoint() == nil)
        try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        try await sink.write(ByteBuffer(string: "abc"))
        #expect(try await sink.resumePoint()?.length == 3)
        try await sink.begin(offset: 3, expectedLength: nil, validator: nil)
        try await sink.write(ByteBuffer(string: "def"))
        try await sink.finish()
        #expect(await sink.data == Data("abcdef".utf8))
        try await sink.begin(offset: 0, expectedLength: nil, validator: nil)
        #expect(await sink.bytes.isEmpty)
        #expect(await !sink.isFinished)
    }
}
