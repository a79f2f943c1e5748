import Foundation

/// One OCS share.
struct StoredShare: Sendable {
    var id: Int
    /// 0 user, 1 group, 3 public link.
    var type: Int
    var owner: String
    var fileID: Int64
    var permissions: Int
    var stime: Int64
    /// `YYYY-MM-DD 00:00:00`, or `nil`.
    var expiration: String?
    var token: String?
    /// The user or group shared with (types 0 and 1).
    var shareWith: String?
    /// The stored password hash of a link share.
    var passwordHash: String?
    var note = ""
    var label = ""
    /// ownCloud's link name (`Public link`).
    var name = ""
    var hideDownload = false
}

/// Every share, by id.
struct ShareStore: Sendable {
    var shares: [Int: StoredShare] = [:]
    var nextID = 0

    /// File id → the share types set on it by `owner`, sorted and unique.
    func types(owner: String) -> [Int64: [Int]] {
        var out: [Int64: Set<Int>] = [:]
        for share in shares.values where share.owner == owner { out[share.fileID, default: []].insert(share.type) }
        return out.mapValues { $0.sorted() }
    }

    /// Shares in listing order: by type, then id (as ownCloud and Nextcloud list them).
    func sorted(_ filter: (StoredShare) -> Bool) -> [StoredShare] {
        shares.values.filter(filter).sorted { ($0.type, $0.id) < ($1.type, $1.id) }
    }

    mutating func add(_ share: StoredShare) -> StoredShare {
        nextID += 1
        var stored = share
        stored.id = nextID
        shares[nextID] = stored
        return stored
    }
}
