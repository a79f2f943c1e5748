import Foundation

/// Secrets a provider logs in with.
///
/// Printing credentials never shows a secret: `description` and the mirror
/// mask passwords and tokens.
public enum Credentials: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// No credentials.
    case none
    /// A user name and password, sent as HTTP Basic (or as a provider's login form).
    case basic(username: String, password: String)
    /// A user name and an app password (Nextcloud, ownCloud): Basic on the wire, revocable on the server.
    case appPassword(username: String, password: String)
    /// A provider-specific token, such as a Nuxeo `X-Authentication-Token`.
    case token(String)
    /// An OAuth-style bearer token with an optional refresh token.
    case bearer(accessToken: String, refreshToken: String?)

    /// The user name, where there is one.
    public var username: String? {
        switch self {
        case .basic(let user, _), .appPassword(let user, _): return user
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .basic(let user, _): return "basic(username: \(user), password: \(Redactor.mask))"
        case .appPassword(let user, _): return "appPassword(username: \(user), password: \(Redactor.mask))"
        case .token: return "token(\(Redactor.mask))"
        case .bearer(_, let refresh): return "bearer(\(Redactor.mask)\(refresh == nil ? "" : ", refresh: \(Redactor.mask)"))"
        }
    }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
