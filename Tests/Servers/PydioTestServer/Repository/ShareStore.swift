import Foundation

/// Public links (`action.share` minisites), by hash.
struct ShareStore: Sendable {
    struct Link: Sendable {
        var hash: String
        var workspace: String
        var path: String
        var owner: String
        var created: Int64
        var expireDays: Int
        var password: String?
        var downloadLimit: Int?
        var downloads = 0
        var internalUser = RandomToken.hex(12)
        /// The minisite workspace id shown as `repositoryId`.
        var repositoryID = RandomToken.hex(32)
        var virtualFolder = RandomToken.hex(10)
    }

    private(set) var links: [String: Link] = [:]
    private var order: [String] = []

    mutating func add(_ link: Link) {
        links[link.hash] = link
        order.append(link.hash)
    }

    /// Links of one node, oldest first.
    func links(workspace: String, path: String) -> [Link] {
        order.compactMap { links[$0] }.filter { $0.workspace == workspace && PathTools.same($0.path, path) }
    }

    mutating func remove(_ hash: String) {
        links[hash] = nil
        order.removeAll { $0 == hash }
    }

    mutating func countDownload(_ hash: String) {
        links[hash]?.downloads += 1
    }

    /// A fresh 6-hex-digit hash.
    func newHash() -> String {
        var hash = RandomToken.hex(6)
        while links[hash] != nil { hash = RandomToken.hex(6) }
        return hash
    }

    /// Follows moves/renames: links under `from` now point below `to`.
    mutating func repoint(workspace: String, from: String, to: String) {
        for (hash, link) in links where link.workspace == workspace && PathTools.isWithin(link.path, from) {
            links[hash]?.path = to + link.path.dropFirst(from.count)
        }
    }
}
