import Foundation

/// Nuxeo Drive synchronization roots, per user, in registration order.
///
/// A registration outlives trashing (like Drive's `drv:subscriptions` stored on
/// the document); whether a root is *active* is decided against the repository.
struct SyncRootRegistry: Sendable {
    private var byUser: [String: [String]] = [:]

    /// Registers `uid` for `user`; `false` when it already was.
    mutating func register(_ uid: String, for user: String) -> Bool {
        guard !(byUser[user] ?? []).contains(uid) else { return false }
        byUser[user, default: []].append(uid)
        return true
    }

    /// Unregisters `uid` for `user`; `false` when it was not registered.
    mutating func unregister(_ uid: String, for user: String) -> Bool {
        guard let index = byUser[user]?.firstIndex(of: uid) else { return false }
        byUser[user]?.remove(at: index)
        return true
    }

    /// Every root registered by `user`, in registration order.
    func roots(of user: String) -> [String] { byUser[user] ?? [] }

    /// The registered roots that still exist and are neither trashed nor under a trashed folder.
    func activeRoots(of user: String, in repository: Repository) -> [String] {
        roots(of: user).filter { uid in
            guard let doc = repository.document(uid), !doc.isTrashed else { return false }
            return !repository.ancestors(of: uid).contains { $0.isTrashed }
        }
    }
}
