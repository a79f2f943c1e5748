import Foundation

/// Sessions by id, and the remember-me cookies (which outlive sessions).
struct SessionStore: Sendable {
    private var sessions: [String: Session] = [:]
    /// `AjaXplorer-remember` value → user.
    private var remembered: [String: String] = [:]

    subscript(id: String) -> Session? {
        get { sessions[id] }
        set { sessions[id] = newValue }
    }

    /// A new anonymous session; returns its id.
    mutating func create() -> String {
        let id = RandomToken.sessionID()
        sessions[id] = Session()
        return id
    }

    /// `session_regenerate_id`: the session moves to a new id.
    mutating func regenerate(_ id: String) -> String {
        let session = sessions.removeValue(forKey: id) ?? Session()
        let newID = RandomToken.sessionID()
        sessions[newID] = session
        return newID
    }

    mutating func issueToken(_ id: String) -> String {
        let token = RandomToken.secureToken()
        sessions[id, default: Session()].tokens.insert(token)
        return token
    }

    /// Every session dies (remember-me cookies survive).
    mutating func expireAll() {
        sessions.removeAll()
    }

    /// A new remember-me cookie value for `user` (`user%3A<md5>`).
    mutating func remember(_ user: String) -> String {
        let value = FormCodec.encodeComponent(user) + "%3A" + MD5.hex(Data(RandomToken.secureToken().utf8))
        remembered[value] = user
        return value
    }

    /// Consumes a remember-me cookie (it rotates on use).
    mutating func takeRemembered(_ value: String) -> String? {
        remembered.removeValue(forKey: value)
    }

    mutating func forget(_ value: String) {
        remembered[value] = nil
    }
}
