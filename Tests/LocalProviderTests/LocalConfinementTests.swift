import Foundation
@testable import LocalProvider
import NIOConcurrencyHelpers
import ProviderAPI
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The root is `base/root`; `base/outside` holds what must never be reached.
struct Sandbox {
    let base: TemporaryFolder
    let root: URL
    let outside: URL
    let provider: LocalProvider

    init() throws {
        base = try TemporaryFolder()
        root = base.url.appendingPathComponent("root", isDirectory: true)
        outside = base.url.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        provider = try LocalProvider(root: root)
    }

    func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(name).path, withDestinationPath: target)
    }

    /// The names in `outside`, which must stay `secret.txt` alone.
    var outsideNames: [String] { (try? FileManager.default.contentsOfDirectory(atPath: outside.path).sorted()) ?? [] }
    var secret: String { (try? String(contentsOf: outside.appendingPathComponent("secret.txt"), encoding: .utf8)) ?? "" }
}

func code(_ body: () async throws -> Void) async -> ProviderError.Code? {
    do { try await body() } catch let error as ProviderError { return error.code } catch { return nil }
    return nil
}

@Suite("LocalProvider: confined to its root")
struct LocalConfinementTests {
    @Test("a path cannot hold '..'")
    func dotDot() {
        let climbing = "a/../../outside"
        #expect(throws: ProviderError.self) { try ItemPath(climbing) }
        #expect(throws: ProviderError.self) { try ItemPath(segments: [".."]) }
    }

    @Test("an absolute symlink to a file outside is neither listed nor followed, nor written through")
    func fileLink() async throws {
        let box = try Sandbox()
        try box.link("link.txt", to: box.outside.appendingPathComponent("secret.txt").path)
        let provider = box.provider
        #expect(try await provider.list(.root, page: .first).items.isEmpty)
        #expect(await code { _ = try await provider.item(at: "/link.txt") } == .notFound)
        #expect(await code { _ = try await provider.download("/link.txt", to: MemorySink(), options: DownloadOptions()) } == .notFound)
        #expect(await code { try await provider.delete("/link.txt") } == .notFound)
        #expect(await code { _ = try await provider.upload(DataSource(string: "x"), to: .root, name: "link.txt", options: UploadOptions(conflict: .fail)) } == .alreadyExists)
        // An overwrite replaces the link itself.
        let item = try await provider.upload(DataSource(string: "mine"), to: .root, name: "link.txt", options: UploadOptions(conflict: .overwrite))
        #expect(item.kind == .file && item.size == 4)
        #expect(box.secret == "secret")
        #expect(box.outsideNames == ["secret.txt"])
    }

    @Test("a symlinked folder is not entered: no listing, no upload, no folder, no delete through it")
    func folderLink() async throws {
        let box = try Sandbox()
        try box.link("inside", to: box.outside.path)
        try box.link("relative", to: "../outside")
        let provider = box.provider
        for name in ["inside", "relative"] {
            let path = try ItemPath("/\(name)")
            #expect(await code { _ = try await provider.list(path, page: .first) } == .notFound)
            #expect(await code { _ = try await provider.item(at: path.appending("secret.txt")) } == .notFound)
            #expect(await code { _ = try await provider.upload(DataSource(string: "x"), to: path, name: "new.txt", options: UploadOptions()) } == .notFound)
            #expect(await code { _ = try await provider.createFolder(named: "new", in: path) } == .notFound)
            #expect(await code { try await provider.delete(path.appending("secret.txt")) } == .notFound)
            #expect(await code { _ = try await provider.copy(path.appending("secret.txt"), to: "/copy.txt", options: TransferOptions()) } == .notFound)
            #expect(await code { _ = try await provider.move(path, to: "/moved", options: TransferOptions()) } == .notFound)
        }
        #expect(box.outsideNames == ["secret.txt"])
    }

    @Test("a symlinked folder deep in a path is not entered either, and a deep path without links is reached")
    func deepFolderLink() async throws {
        let box = try Sandbox()
        let provider = box.provider
        _ = try await provider.createFolder(named: "a", in: .root)
        _ = try await provider.createFolder(named: "b", in: "/a")
        _ = try await provider.createFolder(named: "c", in: "/a/b")
        _ = try await provider.upload(DataSource(string: "deep"), to: "/a/b/c", name: "deep.txt", options: UploadOptions())
        let deep = MemorySink()
        _ = try await provider.download("/a/b/c/deep.txt", to: deep, options: DownloadOptions())
        #expect(String(decoding: await deep.data, as: UTF8.self) == "deep")
        #expect(try await provider.list("/a/b/c", page: .first).items.map(\.name) == ["deep.txt"])
        try FileManager.default.createSymbolicLink(
            atPath: box.root.appendingPathComponent("a/b/inside").path, withDestinationPath: box.outside.path)
        try FileManager.default.createSymbolicLink(
            atPath: box.root.appendingPathComponent("a/b/relative").path, withDestinationPath: "../../../outside")
        try FileManager.default.createSymbolicLink(
            atPath: box.root.appendingPathComponent("a/up").path, withDestinationPath: "b")
        for folder in ["/a/b/inside", "/a/b/relative"] {
            let path = try ItemPath(folder)
            #expect(await code { _ = try await provider.list(path, page: .first) } == .notFound)
            #expect(await code { _ = try await provider.item(at: path.appending("secret.txt")) } == .notFound)
            #expect(await code { _ = try await provider.download(path.appending("secret.txt"), to: MemorySink(), options: DownloadOptions()) } == .notFound)
            #expect(await code { _ = try await provider.upload(DataSource(string: "x"), to: path, name: "new.txt", options: UploadOptions()) } == .notFound)
            #expect(await code { try await provider.delete(path.appending("secret.txt")) } == .notFound)
        }
        // A link in the middle of a path, even to a folder inside the root, is not followed.
        #expect(await code { _ = try await provider.list("/a/up/c", page: .first) } == .notFound)
        #expect(await code { _ = try await provider.download("/a/up/c/deep.txt", to: MemorySink(), options: DownloadOptions()) } == .notFound)
        // A file where a folder is expected is the same error as one segment at a time.
        #expect(await code { _ = try await provider.list("/a/b/c/deep.txt/x", page: .first) } == code { _ = try await provider.list("/a/b/c/deep.txt", page: .first) })
        #expect(box.outsideNames == ["secret.txt"] && box.secret == "secret")
    }

    @Test("deleting a folder removes the links in it, never what they point to")
    func deleteTree() async throws {
        let box = try Sandbox()
        let provider = box.provider
        _ = try await provider.createFolder(named: "tree", in: .root)
        try FileManager.default.createSymbolicLink(
            atPath: box.root.appendingPathComponent("tree/out").path, withDestinationPath: box.outside.path)
        try await provider.delete("/tree")
        #expect(await code { _ = try await provider.item(at: "/tree") } == .notFound)
        #expect(box.outsideNames == ["secret.txt"] && box.secret == "secret")
    }

    @Test("a folder swapped for a symlink while an upload runs: the file lands in the folder that was opened, never outside")
    func swappedMidUpload() async throws {
        let box = try Sandbox()
        let provider = box.provider
        _ = try await provider.createFolder(named: "dir", in: .root)
        let dir = box.root.appendingPathComponent("dir").path
        let moved = box.root.appendingPathComponent("dir-moved").path
        let outside = box.outside.path
        let step = NIOLockedValueBox(0)
        // The second piece is asked for after the upload opened /dir: the folder is then renamed away
        // and a link to the outside takes its name.
        let pieces = AsyncStream<ByteBuffer> {
            switch step.withLockedValue({ value -> Int in
                value += 1
                return value
            }) {
            case 1: return ByteBuffer(string: "first ")
            case 2:
                guard rename(dir, moved) == 0, symlink(outside, dir) == 0 else { return nil }
                return ByteBuffer(string: "second")
            default: return nil
            }
        }
        _ = try await provider.upload(AsyncSequenceSource(pieces), to: "/dir", name: "planted.txt", options: UploadOptions())
        #expect(box.outsideNames == ["secret.txt"])
        #expect((try? String(contentsOfFile: moved + "/planted.txt", encoding: .utf8)) == "first second")
        #expect(await code { _ = try await provider.item(at: "/dir/planted.txt") } == .notFound)
    }

    @Test("the factory roots a URL naming an item at /, resolves the links above the item but never the item, and the registry confines a provider made for a folder")
    func locate() async throws {
        let box = try Sandbox()
        let real = LocalProviderFactory.resolved(box.root.path)
        let factory = LocalProviderFactory()
        let (root, path) = try factory.locate(box.root.appendingPathComponent("new file.txt"))
        #expect(root.path == "/")
        #expect(path.description == real + "/new file.txt")
        // A link above the item is resolved; the item itself is not.
        let linkToRoot = box.root.deletingLastPathComponent().appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(atPath: linkToRoot.path, withDestinationPath: box.root.path)
        defer { try? FileManager.default.removeItem(at: linkToRoot) }
        #expect(try factory.locate(linkToRoot.appendingPathComponent("a.txt")).path.description == real + "/a.txt")
        #expect(try factory.locate(linkToRoot).path.description == LocalProviderFactory.resolved(linkToRoot.deletingLastPathComponent().path) + "/" + linkToRoot.lastPathComponent)
        #expect(try factory.locate(URL(fileURLWithPath: "/")).path.isRoot)
        #expect(throws: ProviderError.self) { try factory.locate(URL(string: "file://elsewhere.example/x")!) }

        let registry = ProviderRegistry()
        registry.register(factory)
        _ = try await box.provider.upload(DataSource(string: "a"), to: .root, name: "a.txt", options: UploadOptions())
        let (provider, resolved) = try await registry.provider(for: box.root.appendingPathComponent("a.txt"))
        #expect(provider.account.kind == "local" && resolved.description == real + "/a.txt")
        #expect(try await provider.item(at: resolved).size == 1)
        // Made for the folder, the provider is confined to it.
        let (confined, confinedPath) = try await registry.provider(for: box.root, root: .url)
        #expect(confinedPath.isRoot)
        #expect(try await confined.item(at: "/a.txt").size == 1)
        #expect(await code { _ = try await confined.item(at: try ItemPath("/..\(real)/a.txt")) } != nil)
    }
}

@Suite("LocalProvider: atomic writes")
struct LocalAtomicTests {
    struct Broken: Error {}

    @Test("a failing upload source leaves nothing under the final name, keeps the old file, and leaves no temporary file")
    func failingSource() async throws {
        let box = try Sandbox()
        let provider = box.provider
        _ = try await provider.upload(DataSource(string: "old"), to: .root, name: "kept.txt", options: UploadOptions())
        for name in ["new.txt", "kept.txt"] {
            let pieces = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
                continuation.yield(ByteBuffer(string: "partial"))
                continuation.finish(throwing: Broken())
            }
            await #expect(throws: ProviderError.self) {
                _ = try await provider.upload(AsyncSequenceSource(pieces), to: .root, name: name, options: UploadOptions())
            }
        }
        #expect(await code { _ = try await provider.item(at: "/new.txt") } == .notFound)
        let sink = MemorySink()
        _ = try await provider.download("/kept.txt", to: sink, options: DownloadOptions())
        #expect(await sink.bytes == Array("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.root.path) == ["kept.txt"])
    }

    @Test("temporary upload files are not listed")
    func hidden() async throws {
        let box = try Sandbox()
        try Data("x".utf8).write(to: box.root.appendingPathComponent(".strata-upload-leftover"))
        _ = try await box.provider.upload(DataSource(string: "x"), to: .root, name: ".profile", options: UploadOptions())
        #expect(try await box.provider.list(.root, page: .first).items.map(\.name) == [".profile"])
    }

    @Test("ids survive a move; a copy is another file; etags change on overwrite")
    func identity() async throws {
        let box = try Sandbox()
        let provider = box.provider
        let first = try await provider.upload(DataSource(string: "one"), to: .root, name: "a.txt", options: UploadOptions())
        let moved = try await provider.move("/a.txt", to: "/b.txt", options: TransferOptions())
        #expect(moved.id == first.id && moved.etag == first.etag)
        let copied = try await provider.copy("/b.txt", to: "/c.txt", options: TransferOptions())
        #expect(copied.id != moved.id && copied.modified == moved.modified)
        let replaced = try await provider.upload(DataSource(string: "two"), to: .root, name: "b.txt", options: UploadOptions(ifMatch: moved.etag))
        #expect(replaced.etag != moved.etag)
        #expect(try await provider.item(at: "/b.txt").etag == replaced.etag)
    }
}
