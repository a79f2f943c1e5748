import Foundation

/// Everything mutable on the server, guarded by one lock in ``ServerCore``.
struct ServerState: Sendable {
    var repository = Repository()
    var batches = BatchStore()
    var tokens = TokenStore()
    var syncRoots = SyncRootRegistry()
    var requests: [RecordedRequest] = []
}
