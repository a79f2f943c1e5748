import Foundation
import ProviderAPI
@testable import SharedCache

/// A fresh directory under the system's temporary folder, removed by `remove()`.
struct CacheDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cache-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

enum Fixtures {
    static let alice = ProviderAccount(kind: "webdav", server: "https://dav.example.com", user: "alice")
    static let bob = ProviderAccount(kind: "webdav", server: "https://dav.example.com", user: "bob")
    static let nuxeo = ProviderAccount(kind: "nuxeo", server: "https://nx.example.com", user: "alice", workspace: "default")

    static func file(_ path: String, size: Int64 = 10, etag: String? = nil, mime: String? = "text/plain", modified: Date? = nil) -> Item {
        Item(
            path: ItemPath(stringLiteral: path), kind: .file, size: size, modified: modified, etag: etag, mimeType: mime,
            digests: [.md5: "00112233445566778899aabbccddeeff"], permissions: [.read, .write],
            properties: ["dav:getcontentlanguage": "en", "raw": path])
    }

    static func folder(_ path: String) -> Item {
        Item(path: ItemPath(stringLiteral: path), kind: .folder, etag: "\"f\"")
    }

    /// Writes `bytes` to a new file in `directory`.
    static func write(_ bytes: [UInt8], in directory: URL, name: String = UUID().uuidString) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    static func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }
}
