import Foundation

/// Nextcloud's Login Flow v2 (`core/Controller/ClientFlowLoginV2Controller.php`, `LoginFlowV2Service`)
/// and the app passwords it grants: the flows in progress, the app passwords handed out, and
/// those revoked (`DELETE ocs/v2.php/core/apppassword`).
struct LoginFlowStore: Sendable {
    /// How long a flow lives, as `LoginFlowV2Service`'s 20 minutes.
    static let lifetime: TimeInterval = 20 * 60

    /// One flow: its two tokens, the client (its User-Agent), and the grant once the user gave it.
    struct Flow: Sendable {
        var pollToken: String
        var loginToken: String
        /// The hidden field of the login form, checked when it is posted (the real flow's state token).
        var stateToken: String
        var clientName: String
        var created: Date
        var grant: Grant?

        func isExpired(at now: Date) -> Bool { now.timeIntervalSince(created) > LoginFlowStore.lifetime }
    }

    /// What the poll hands out once.
    struct Grant: Sendable {
        var server: String
        var loginName: String
        var appPassword: String
    }

    /// An app password the flow created: whose, and its name (the client's User-Agent).
    struct AppPassword: Sendable {
        var user: String
        var name: String
    }

    /// Flows by poll token.
    var flows: [String: Flow] = [:]
    /// App passwords granted by a flow, by secret.
    var granted: [String: AppPassword] = [:]
    /// App passwords revoked (granted or configured ones), refused from then on.
    var revoked: Set<String> = []
    /// Every poll token and app password handed out, for tests that check a client never shows one.
    var issued: [String] = []

    /// The flow whose login token is `token`, unless it has expired.
    func flow(loginToken token: String, at now: Date) -> Flow? {
        flows.values.first { $0.loginToken == token && !$0.isExpired(at: now) }
    }

    /// Drops the flows that have expired.
    mutating func dropExpired(at now: Date) {
        flows = flows.filter { !$0.value.isExpired(at: now) }
    }

    /// `count` random letters and digits, as `ISecureRandom::generate` with upper, lower and digits.
    static func randomToken(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}

extension ServerCore {
    /// The user the request's `Authorization` proves (``Authentication/user(_:_:)``), with the app
    /// passwords the login flow granted accepted and revoked ones refused.
    func authenticatedUser(_ request: ServerRequest) -> String? {
        if let (name, secret) = Self.basic(request) {
            let (revoked, granted) = withState { ($0.loginFlows.revoked.contains(secret), $0.loginFlows.granted[secret]) }
            if revoked { return nil }
            if let granted, granted.user == name, userExists(name) { return name }
        }
        return Authentication.user(request, configuration)
    }

    /// The app password of a request's Basic `Authorization` (granted or configured, not revoked), if it is one.
    func appPassword(_ request: ServerRequest) -> String? {
        guard let (name, secret) = Self.basic(request) else { return nil }
        return withState { state in
            if state.loginFlows.revoked.contains(secret) { return nil }
            if state.loginFlows.granted[secret]?.user == name { return secret }
            return configuration.appPasswords[secret] == name ? secret : nil
        }
    }

    /// The user name and secret of a Basic `Authorization`.
    static func basic(_ request: ServerRequest) -> (String, String)? {
        guard let header = request.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
