import Foundation

/// Tokens issued by `/authentication/token`, one per (user, application, device).
struct TokenStore: Sendable {
    struct Key: Hashable, Sendable {
        var user: String
        var application: String
        var device: String
    }

    private var byKey: [Key: String] = [:]
    private var users: [String: String] = [:]

    /// Returns the existing token for the key, or issues a new one.
    mutating func acquire(_ key: Key) -> String {
        if let token = byKey[key] { return token }
        let token = UUID().uuidString.lowercased()
        byKey[key] = token
        users[token] = key.user
        return token
    }

    /// Revokes the key's token; `false` when there was none.
    mutating func revoke(_ key: Key) -> Bool {
        guard let token = byKey.removeValue(forKey: key) else { return false }
        users[token] = nil
        return true
    }

    /// Forgets every token (server-side revocation).
    mutating func revokeAll() {
        byKey.removeAll()
        users.removeAll()
    }

    func user(for token: String) -> String? { users[token] }
}
