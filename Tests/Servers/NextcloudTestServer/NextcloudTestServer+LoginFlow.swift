import Foundation

extension NextcloudTestServer {
    /// Ages every Login Flow v2 in progress past its 20 minutes: from now on its poll answers 404
    /// and its login page 403, as on a server where the user came back too late.
    public func expireLoginFlows() {
        core.withState { state in
            for token in state.loginFlows.flows.keys { state.loginFlows.flows[token]?.created = .distantPast }
        }
    }

    /// How many Login Flow v2 flows are in progress (started, not yet polled to the end, not expired).
    public func loginFlowsInProgress() -> Int {
        core.withState { state in state.loginFlows.flows.values.filter { !$0.isExpired(at: Date()) }.count }
    }

    /// The names of `user`'s app passwords granted through Login Flow v2 and not revoked (each is
    /// the User-Agent of the client that asked), sorted. Never the secrets.
    public func appPasswordNames(user: String) -> [String] {
        core.withState { state in state.loginFlows.granted.values.filter { $0.user == user }.map(\.name).sorted() }
    }

    /// Every poll token and app password this server handed out through Login Flow v2: what a
    /// client must never print.
    public func loginFlowSecrets() -> [String] {
        core.withState { $0.loginFlows.issued }
    }
}
