import Foundation
import ProviderAPI
import ProviderKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("LocalFolderCache: folders kept open, used again only where they still are")
struct LocalFolderCacheTests {
    /// The device and inode of the folder, to tell which folder a descriptor holds.
    private static func identity(_ folder: LocalFolder) throws -> String { try folder.entry().stableID }

    @Test("a kept folder is reached again; a folder below it is opened from it and is the right folder")
    func reachesFromKept() throws {
        let base = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: base.path("a/b/c"), withIntermediateDirectories: true)
        let cache = LocalFolderCache(root: try LocalFolder.open(path: base.url.path))
        let a = try cache.folder(at: "/a")
        #expect(try cache.folder(at: "/a") === a)
        let c = try cache.folder(at: "/a/b/c")
        #expect(try Self.identity(c) == Self.identity(try LocalFolder.open(path: base.path("a/b/c"))))
        #expect(try cache.folder(at: .root) === cache.root)
    }

    @Test("a kept folder renamed away, or swapped for a link to the outside, is not used again: the link is refused, nothing outside is reached")
    func swappedFolderIsOpenedAnew() async throws {
        let box = try Sandbox()
        let cache = LocalFolderCache(root: try LocalFolder.open(path: box.root.path))
        try FileManager.default.createDirectory(atPath: box.root.appendingPathComponent("dir/sub").path, withIntermediateDirectories: true)
        _ = try cache.folder(at: "/dir/sub")
        let kept = try cache.folder(at: "/dir")
        let dir = box.root.appendingPathComponent("dir").path
        #expect(rename(dir, box.root.appendingPathComponent("moved").path) == 0)
        #expect(symlink(box.outside.path, dir) == 0)
        #expect(await code { _ = try cache.folder(at: "/dir") } == .notFound)
        // A kept folder below the one swapped is still the folder it was (now /moved/sub, inside
        // the root) for the cache's lifetime, as documented; never anything outside.
        let sub = try? cache.folder(at: "/dir/sub")
        if let sub { #expect(try Self.identity(sub) == Self.identity(try LocalFolder.open(path: box.root.appendingPathComponent("moved/sub").path))) }
        #expect(await code { _ = try LocalFolderCache(root: cache.root).folder(at: "/dir/sub") } == .notFound)
        // Another folder under the name is that folder, not the kept one.
        #expect(unlink(dir) == 0)
        #expect(mkdir(dir, 0o755) == 0)
        let fresh = try cache.folder(at: "/dir")
        #expect(fresh !== kept)
        #expect(try Self.identity(fresh) != Self.identity(kept))
        #expect(try fresh.names().isEmpty)
    }

    @Test("past its lifetime a kept folder is opened anew; past the capacity the least recently used go first")
    func lifetimeAndCapacity() throws {
        let base = try TemporaryFolder()
        for name in ["a", "b", "c", "d"] { try FileManager.default.createDirectory(atPath: base.path(name), withIntermediateDirectories: true) }
        let expired = LocalFolderCache(root: try LocalFolder.open(path: base.url.path), lifetime: .zero)
        let a = try expired.folder(at: "/a")
        #expect(try expired.folder(at: "/a") !== a)

        let small = LocalFolderCache(root: try LocalFolder.open(path: base.url.path), capacity: 2)
        let first = try small.folder(at: "/a")
        _ = try small.folder(at: "/b")
        #expect(try small.folder(at: "/a") === first)  // used again: /b is now the least recently used
        _ = try small.folder(at: "/c")
        _ = try small.folder(at: "/d")
        // Every answer is still the folder at its path, kept or not.
        for name in ["a", "b", "c", "d"] {
            #expect(try Self.identity(small.folder(at: ItemPath("/\(name)"))) == Self.identity(try LocalFolder.open(path: base.path(name))))
        }
    }

    @Test("the provider's own move, delete and overwrite of a folder are seen by its next call")
    func providerSeesItsOwnChanges() async throws {
        let box = try Sandbox()
        let provider = box.provider
        _ = try await provider.createFolder(named: "a", in: .root)
        _ = try await provider.createFolder(named: "b", in: "/a")
        _ = try await provider.upload(DataSource(string: "one"), to: "/a/b", name: "f.txt", options: UploadOptions())
        #expect(try await provider.list("/a/b", page: .first).items.map(\.name) == ["f.txt"])

        _ = try await provider.move("/a", to: "/c", options: TransferOptions())
        #expect(await code { _ = try await provider.list("/a/b", page: .first) } == .notFound)
        #expect(try await provider.list("/c/b", page: .first).items.map(\.name) == ["f.txt"])

        try await provider.delete("/c")
        _ = try await provider.createFolder(named: "c", in: .root)
        #expect(await code { _ = try await provider.list("/c/b", page: .first) } == .notFound)
        _ = try await provider.upload(DataSource(string: "two"), to: "/c", name: "g.txt", options: UploadOptions())
        #expect(FileManager.default.fileExists(atPath: box.root.appendingPathComponent("c/g.txt").path))

        // A copy over a folder replaces it: the kept /c is the old one.
        _ = try await provider.createFolder(named: "d", in: .root)
        _ = try await provider.upload(DataSource(string: "three"), to: "/d", name: "h.txt", options: UploadOptions())
        _ = try await provider.copy("/d", to: "/c", options: TransferOptions(overwrite: true))
        #expect(try await provider.list("/c", page: .first).items.map(\.name) == ["h.txt"])
        #expect(box.outsideNames == ["secret.txt"])
    }
}
