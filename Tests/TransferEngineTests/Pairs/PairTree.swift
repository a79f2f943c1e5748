import Foundation
import NIOCore
import ProviderAPI
import ProviderKit

/// The trees of the pair tests, written into a ``LocalTree``.
enum PairTree {
    /// The file whose one byte the tests change: deep, and with a name every server stores as it is.
    static let changed = "nested/deep/change me.txt"

    /// Awkward names: spaces, `%`, `#`, `?`, `&`, `"`, `|`, Unicode in NFC and in NFD, a leading
    /// dot (file and folder), empty folders, a zero-byte file; Pydio refuses `?`, `"`, `|` and a
    /// leading dot, so there they are mapped.
    static func awkward(_ tree: LocalTree) throws {
        try tree.write("with space .txt", "spaces")
        try tree.write("100% sure.txt", "percent")
        try tree.write("#hash.txt", "hash")
        try tree.write("what?.txt", "a question")
        try tree.write("this & that.txt", "ampersand")
        try tree.write("quote\"d|pipe.txt", "quoted")
        try tree.write("caf\u{E9} nfc.txt", "precomposed")  // é as one scalar
        try tree.write("nai\u{0308}ve nfd.txt", "decomposed")  // ï as i and a combining diaeresis
        try tree.write("r\u{E9}sum\u{E9}s/\u{1F4C4} pile.txt", "emoji in a folder with an accent")
        try tree.write(".hidden", "dot file")
        try tree.write(".dot folder/inside.txt", "in a dot folder")
        try tree.write("zero.txt", Data())
        try tree.write(changed, "this file changes by one byte")
        try tree.folder("empty")
        try tree.folder("nested/empty too")
        try tree.folder("nested/deep/empty three/")
    }

    /// `count` small files of different sizes, ten to a folder, in folders two deep.
    static func many(_ tree: LocalTree, count: Int) throws {
        for index in 0..<count {
            let folder = "many/group \(index / 100)/set \(index / 10 % 10)"
            try tree.write("\(folder)/file \(index).txt", String(repeating: "line \(index)\n", count: 1 + index % 7))
        }
    }

    /// A file of `size` bytes of a pattern, written a megabyte at a time.
    static func large(_ tree: LocalTree, _ relative: String, size: Int) throws {
        let url = tree.url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let chunk = 1 << 20
        var written = 0
        while written < size {
            let length = min(chunk, size - written)
            let start = written
            try handle.write(contentsOf: Data((0..<length).map { UInt8(truncatingIfNeeded: (start + $0) &* 31 &+ ($0 >> 12)) }))
            written += length
        }
    }
}

/// A tree as one side holds it: folders and files under keys that say which names a destination
/// takes to be the same (its stored form, folded when it ignores case), each file with a SHA-256.
struct TreeSnapshot: Equatable, CustomStringConvertible {
    var folders: Set<String> = []
    var files: [String: String] = [:]

    var description: String { "\(folders.count) folders, \(files.count) files" }

    /// The local tree at `url`, each name mapped as a copy through `hops` (the names rules of each
    /// destination in turn) maps it: kept where the destination accepts it, else the name encoder's.
    static func local(_ url: URL, through hops: [NameRules]) throws -> TreeSnapshot {
        var snapshot = TreeSnapshot()
        let base = url.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return snapshot }
        while let relative = walker.nextObject() as? String {
            let key = relative.split(separator: "/").map { Self.mapped(String($0), through: hops) }.joined(separator: "/")
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isFolder)
            if isFolder.boolValue {
                snapshot.folders.insert(key)
            } else {
                snapshot.files[key] = try Self.sha256(of: URL(fileURLWithPath: base + "/" + relative))
            }
        }
        return snapshot
    }

    /// The tree below `root` on `provider`, every file downloaded (eight at once) and hashed.
    static func remote(_ provider: any StorageProvider, at root: ItemPath) async throws -> TreeSnapshot {
        let rules = provider.capabilities.names
        var snapshot = TreeSnapshot()
        var files: [(key: String, path: ItemPath)] = []
        var level: [(key: String, path: ItemPath)] = [("", root)]
        while !level.isEmpty {
            var next: [(key: String, path: ItemPath)] = []
            for folder in level {
                for item in try await provider.listAll(folder.path, pageSize: 1000, fields: []) {
                    let key = (folder.key.isEmpty ? "" : folder.key + "/") + Self.key(item.name, rules)
                    if item.isFolder {
                        snapshot.folders.insert(key)
                        next.append((key, item.path))
                    } else {
                        files.append((key, item.path))
                    }
                }
            }
            level = next
        }
        try await withThrowingTaskGroup(of: (String, String).self) { group in
            var started = 0
            func start() {
                let (key, path) = files[started]
                started += 1
                group.addTask {
                    let sink = HashingSink()
                    _ = try await provider.download(path, to: sink, options: DownloadOptions())
                    return (key, await sink.digest)
                }
            }
            while started < min(8, files.count) { start() }
            while let (key, digest) = try await group.next() {
                snapshot.files[key] = digest
                if started < files.count { start() }
            }
        }
        return snapshot
    }

    /// `name` after a copy through each of `hops`, as the last one compares names.
    static func mapped(_ name: String, through hops: [NameRules]) -> String {
        let name = stored(name, through: hops)
        return hops.last.map { key(name, $0) } ?? name
    }

    /// `name` as the last of `hops` stores it after a copy through each: decoded by the rules of
    /// the server it is read from, encoded for the next (unchanged where it accepts it), in that
    /// server's normalisation.
    static func stored(_ name: String, through hops: [NameRules]) -> String {
        var name = name
        var previous: NameRules?
        for rules in hops {
            if let previous { name = NameEncoder(rules: previous).decode(name) }
            name = rules.stored(NameEncoder(rules: rules).encode(name))
            previous = rules
        }
        return name
    }

    static func key(_ name: String, _ rules: NameRules) -> String {
        let stored = rules.stored(name)
        return rules.caseSensitive ? stored : stored.lowercased()
    }

    static func sha256(of url: URL) throws -> String {
        guard var digester = Digester(.sha256) else { return "" }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            digester.update(ByteBuffer(bytes: data))
        }
        return digester.finalize()
    }
}

/// A download sink keeping a running SHA-256 of the bytes and nothing else.
actor HashingSink: DownloadSink {
    private var digester = Digester(.sha256)
    private var taken: Int64 = 0

    var digest: String { digester?.finalize() ?? "" }

    func resumePoint() async throws -> ResumePoint? { nil }

    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        guard offset == taken else { throw ProviderError(.conflict, "cannot restart a hash at \(offset) after \(taken) bytes") }
    }

    func write(_ buffer: ByteBuffer) async throws {
        digester?.update(buffer)
        taken += Int64(buffer.readableBytes)
    }

    func finish() async throws {}
    func fail() async {}
}
