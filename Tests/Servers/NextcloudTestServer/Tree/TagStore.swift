import Foundation

/// Nextcloud's collaborative (system) tags and their assignments to files.
struct TagStore: Sendable {
    struct Tag: Sendable {
        var id: Int
        var name: String
        var userVisible: Bool
        var userAssignable: Bool
    }

    var tags: [Int: Tag] = [:]
    /// File id → tag ids.
    var relations: [Int64: Set<Int>] = [:]
    var nextID = 0

    mutating func add(name: String, userVisible: Bool, userAssignable: Bool) -> Tag {
        nextID += 1
        let tag = Tag(id: nextID, name: name, userVisible: userVisible, userAssignable: userAssignable)
        tags[nextID] = tag
        return tag
    }
}
