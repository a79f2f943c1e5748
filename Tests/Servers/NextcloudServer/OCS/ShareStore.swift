import Foundation

/// Every share, by id.
struct ShareStore: Sendable {
    var shares: [Int] = []

    /// File id → the share types set on it by `owner`.
    func types(owner: String) -> [Int64: [Int]] { [:] }
}
