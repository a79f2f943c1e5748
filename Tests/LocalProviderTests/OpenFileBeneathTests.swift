import Foundation
import ProviderAPI
import ProviderKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `LocalFolder.openFile(at:)`: one walk of a path below the folder, refusing what the walk one
/// segment at a time refuses (it answers `nil` and leaves the reason to that walk).
@Suite("LocalFolder.openFile(at:)")
struct OpenFileBeneathTests {
    @Test("a deep regular file opens (in one call on Linux); links, missing names, FIFOs and folders do not")
    func paths() throws {
        let box = try Sandbox()
        let deep = box.root.appendingPathComponent("a/b/c", isDirectory: true)
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try Data("deep".utf8).write(to: deep.appendingPathComponent("deep.txt"))
        try FileManager.default.createSymbolicLink(atPath: box.root.appendingPathComponent("a/up").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(
            atPath: deep.appendingPathComponent("last.txt").path, withDestinationPath: deep.appendingPathComponent("deep.txt").path)
        try FileManager.default.createSymbolicLink(atPath: box.root.appendingPathComponent("a/out").path, withDestinationPath: box.outside.path)
        #expect(mkfifo(deep.appendingPathComponent("fifo").path, 0o600) == 0)
        let root = try LocalFolder.open(path: box.root.path)

        let file = try root.openFile(at: "/a/b/c/deep.txt")
        #if os(Linux)
            #expect(file != nil, "openat2 is there on this kernel: the path should open in one call")
        #endif
        if let file {
            // What the open checked is handed on: the same as asking fstat again.
            let checked = try #require(file.checkedEntry)
            let asked = try file.entry()
            #expect(checked.size == 4 && checked.kind == .file)
            #expect(checked == asked)
        }
        let named = try LocalFolder.open(path: deep.path).openFile(named: "deep.txt")
        #expect(named.checkedEntry == (try named.entry()))
        #expect(LocalFile(descriptor: dup(named.descriptor), path: "dup").checkedEntry == nil)

        // A link in the middle (even to a folder inside the root), a link named last, a link out.
        #expect(try root.openFile(at: "/a/up/c/deep.txt") == nil)
        #expect(try root.openFile(at: "/a/b/c/last.txt") == nil)
        #expect(try root.openFile(at: "/a/out/secret.txt") == nil)
        #expect(try root.openFile(at: "/a/b/c/missing.txt") == nil)
        #expect(try root.openFile(at: .root) == nil)

        // What opened but is no regular file: the errors of openFile(named:), without blocking on the FIFO.
        #if os(Linux)
            let folderError = #expect(throws: ProviderError.self) { _ = try root.openFile(at: "/a/b") }
            #expect(folderError?.code == .invalidArgument)
            let fifoError = #expect(throws: ProviderError.self) { _ = try root.openFile(at: "/a/b/c/fifo") }
            #expect(fifoError?.code == .notFound)
        #endif
        #expect(box.outsideNames == ["secret.txt"] && box.secret == "secret")
    }

    @Test("downloads through the provider: the same errors as before for what the single walk refuses")
    func downloads() async throws {
        let box = try Sandbox()
        let provider = box.provider
        _ = try await provider.createFolder(named: "a", in: .root)
        _ = try await provider.createFolder(named: "b", in: "/a")
        _ = try await provider.upload(DataSource(string: "deep"), to: "/a/b", name: "deep.txt", options: UploadOptions())
        let sink = MemorySink()
        let result = try await provider.download("/a/b/deep.txt", to: sink, options: DownloadOptions())
        #expect(String(decoding: await sink.data, as: UTF8.self) == "deep")
        #expect(result.item.size == 4 && result.item.etag != nil && result.item.kind == .file)
        // A download's item leaves permissions unknown; item(at:) still gives them.
        #expect(result.item.permissions == nil)
        #expect(try await provider.item(at: "/a/b/deep.txt").permissions?.contains(.read) == true)
        #expect(try await provider.item(at: "/a/b/deep.txt").etag == result.item.etag)
        #expect(await code { _ = try await provider.download("/a/b", to: MemorySink(), options: DownloadOptions()) } == .invalidArgument)
        #expect(await code { _ = try await provider.download("/a/b/none.txt", to: MemorySink(), options: DownloadOptions()) } == .notFound)
        #expect(await code { _ = try await provider.download("/a/b/deep.txt/x", to: MemorySink(), options: DownloadOptions()) }
            == code { _ = try await provider.list("/a/b/deep.txt", page: .first) })
    }
}
