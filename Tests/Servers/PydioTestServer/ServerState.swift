import Foundation

/// Everything mutable on the server, guarded by one lock in ``ServerCore``.
struct ServerState: Sendable {
    var workspaces: [String: Workspace]
    var sessions = SessionStore()
    var captcha = CaptchaGuard()
    var shares = ShareStore()
    var requests: [PydioRecordedRequest] = []
    var nextInode: Int = 16_343_600

    init(now: Int64) {
        workspaces = [
            "0": Workspace(id: "0", created: now),
            "1": Workspace(id: "1", created: now),
        ]
    }
}
