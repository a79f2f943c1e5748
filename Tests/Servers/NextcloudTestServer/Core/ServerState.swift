import Foundation

/// Everything mutable on the server, guarded by one lock in ``ServerCore``.
struct ServerState: Sendable {
    var files = FileStore()
    var shares = ShareStore()
    var tags = TagStore()
    var loginFlows = LoginFlowStore()
    var requests: [RecordedRequest] = []
}
