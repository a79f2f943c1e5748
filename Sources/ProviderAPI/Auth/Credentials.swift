import Foundation

/// Secrets a provider logs in with.
///
/// Make them with the static constructors, which read at a call site as the cases of an enum:
///
/// ```swift
/// let login: Credentials = .basic(username: "ann", password: password)
/// let api: Credentials = .bearer(accessToken: token)
/// ```
///
/// An adapter reads what it needs through the accessors, without a `switch`: a provider that
/// signs in with a user name and password takes ``username`` and ``password`` (present for
/// ``basic(username:password:)`` and ``appPassword(username:password:)``), one that sends a
/// token takes ``token`` or ``accessToken``. ``kind`` tells the kinds apart where it matters (an
/// app password is revocable). New kinds, and new fields of a kind, can be added without
/// breaking code that reads credentials: `Credentials` is a struct and ``Kind`` a set of named
/// values, not enums a `switch` must cover. An adapter with a sign-in of its own (an access key
/// and a secret) makes it with ``init(kind:fields:)`` and reads it with ``subscript(field:)``.
///
/// Printing credentials never shows a secret: `description` and the mirror mask every field
/// but ``username``.
///
/// Encoded (by a ``CredentialStore``), they are one JSON object keyed by the kind, holding the
/// fields: `{"basic":{"password":"p","username":"u"}}`, `{"none":{}}`,
/// `{"token":{"_0":"t"}}`, `{"bearer":{"accessToken":"a","refreshToken":"r"}}`. That is what
/// earlier versions of Strata, where `Credentials` was an enum, wrote and read: saved logins
/// stay readable both ways. An OAuth2 login is
/// `{"oauth2":{"accessToken":"a","clientID":"c","expiresAt":"1700000000","refreshToken":"r","tokenURL":"https://…"}}`.
public struct Credentials: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// What kind of sign-in credentials are for.
    ///
    /// A named value rather than an enum, so that new kinds do not break a `switch` over it
    /// (compare with `==`, or switch with a `default`).
    public struct Kind: RawRepresentable, Sendable, Hashable {
        /// The kind's name, as it is stored: `basic`, `appPassword`, ….
        public let rawValue: String

        /// The kind named `rawValue`; an adapter may name a kind of its own.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No credentials.
        public static let none = Kind(rawValue: "none")
        /// A user name and password (``Credentials/basic(username:password:)``).
        public static let basic = Kind(rawValue: "basic")
        /// A user name and an app password (``Credentials/appPassword(username:password:)``).
        public static let appPassword = Kind(rawValue: "appPassword")
        /// A provider-specific token (``Credentials/token(_:)``).
        public static let token = Kind(rawValue: "token")
        /// An OAuth-style bearer token (``Credentials/bearer(accessToken:refreshToken:)``).
        public static let bearer = Kind(rawValue: "bearer")
        /// An OAuth2 login that renews itself at its token endpoint
        /// (``Credentials/oauth2(accessToken:refreshToken:expiresAt:tokenURL:clientID:clientSecret:)``).
        public static let oauth2 = Kind(rawValue: "oauth2")
    }

    /// What kind of sign-in these are.
    public let kind: Kind
    /// The values, by field name (`username`, `password`, `token`, `accessToken`, `refreshToken`,
    /// or an adapter's own).
    private let fields: [String: String]

    /// Credentials of `kind` holding `fields`, for a kind an adapter defines itself; the built-in
    /// kinds have their own constructors (``basic(username:password:)``, …). Every field but
    /// `username` is treated as a secret.
    public init(kind: Kind, fields: [String: String]) {
        self.kind = kind
        self.fields = fields
    }

    /// No credentials.
    public static let none = Credentials(kind: .none, fields: [:])

    /// A user name and password, sent as HTTP Basic (or as a provider's login form).
    public static func basic(username: String, password: String) -> Credentials {
        Credentials(kind: .basic, fields: [Field.username: username, Field.password: password])
    }

    /// A user name and an app password (Nextcloud, ownCloud): Basic on the wire, revocable on the server.
    public static func appPassword(username: String, password: String) -> Credentials {
        Credentials(kind: .appPassword, fields: [Field.username: username, Field.password: password])
    }

    /// A provider-specific token, such as a Nuxeo `X-Authentication-Token`.
    public static func token(_ token: String) -> Credentials {
        Credentials(kind: .token, fields: [Field.token: token])
    }

    /// An OAuth-style bearer token with an optional refresh token.
    public static func bearer(accessToken: String, refreshToken: String? = nil) -> Credentials {
        var fields = [Field.accessToken: accessToken]
        fields[Field.refreshToken] = refreshToken
        return Credentials(kind: .bearer, fields: fields)
    }

    /// An OAuth2 login (RFC 6749): an access token sent as `Bearer`, renewed with `refreshToken` at
    /// `tokenURL` before `expiresAt` or when the server refuses it.
    ///
    /// The token endpoint and client are kept with the tokens so that a login saved by one process
    /// can be renewed by a later one. The HTTP kit's authenticator does the renewal and reports
    /// the new tokens through `ProviderServices.credentialsRenewed`, which saves them back where
    /// they came from.
    ///
    /// - Parameters:
    ///   - accessToken: the access token.
    ///   - refreshToken: the refresh token, if the server gave one (without it, an expired login
    ///     must sign in again).
    ///   - expiresAt: when the access token expires (kept as whole seconds), if the server said.
    ///   - tokenURL: the authorization server's token endpoint.
    ///   - clientID: the client the tokens were issued to.
    ///   - clientSecret: the client's secret, for a confidential client.
    public static func oauth2(
        accessToken: String, refreshToken: String?, expiresAt: Date?, tokenURL: URL, clientID: String,
        clientSecret: String? = nil
    ) -> Credentials {
        var fields = [Field.accessToken: accessToken, Field.tokenURL: tokenURL.absoluteString, Field.clientID: clientID]
        fields[Field.refreshToken] = refreshToken
        fields[Field.expiresAt] = expiresAt.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) }
        fields[Field.clientSecret] = clientSecret
        return Credentials(kind: .oauth2, fields: fields)
    }

    /// The user name: that of ``basic(username:password:)`` and ``appPassword(username:password:)``,
    /// or of an adapter's own kind that has one.
    public var username: String? { fields[Field.username] }
    /// The password (or app password) that goes with ``username``.
    public var password: String? { fields[Field.password] }
    /// The token of ``token(_:)``.
    public var token: String? { fields[Field.token] }
    /// The access token of ``bearer(accessToken:refreshToken:)``.
    public var accessToken: String? { fields[Field.accessToken] }
    /// The refresh token of ``bearer(accessToken:refreshToken:)`` or of an OAuth2 login, if one was given.
    public var refreshToken: String? { fields[Field.refreshToken] }
    /// When the access token of an OAuth2 login expires, if the server said.
    public var expiresAt: Date? {
        fields[Field.expiresAt].flatMap { Int64($0) }.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }
    /// The token endpoint of an OAuth2 login.
    public var tokenURL: URL? { fields[Field.tokenURL].flatMap { URL(string: $0) } }
    /// The client an OAuth2 login was issued to.
    public var clientID: String? { fields[Field.clientID] }
    /// The secret of the confidential client of an OAuth2 login, if it has one.
    public var clientSecret: String? { fields[Field.clientSecret] }

    /// The value of the field `name`, such as a field of an adapter's own kind; `nil` if absent.
    public subscript(field name: String) -> String? { fields[name] }

    /// The field names of the built-in kinds, as stored.
    private enum Field {
        static let username = "username"
        static let password = "password"
        static let token = "token"
        static let accessToken = "accessToken"
        static let refreshToken = "refreshToken"
        static let expiresAt = "expiresAt"
        static let tokenURL = "tokenURL"
        static let clientID = "clientID"
        static let clientSecret = "clientSecret"
        /// Where the enum `Credentials` of earlier versions kept the value of `.token(_:)`.
        static let legacyToken = "_0"
    }

    /// The fields each built-in kind must have: a stored login missing one is refused as the
    /// enum of earlier versions refused it, rather than read as a login without a password.
    private static let requiredFields: [Kind: [String]] = [
        .none: [], .basic: [Field.username, Field.password], .appPassword: [Field.username, Field.password],
        .token: [Field.token], .bearer: [Field.accessToken],
        .oauth2: [Field.accessToken, Field.tokenURL, Field.clientID],
    ]

    public var description: String {
        switch kind {
        case .none: return "none"
        case .basic: return "basic(username: \(username ?? ""), password: \(Redactor.mask))"
        case .appPassword: return "appPassword(username: \(username ?? ""), password: \(Redactor.mask))"
        case .token: return "token(\(Redactor.mask))"
        case .bearer: return "bearer(\(Redactor.mask)\(refreshToken == nil ? "" : ", refresh: \(Redactor.mask)"))"
        case .oauth2:
            var shown = ["access: \(Redactor.mask)"]
            if refreshToken != nil { shown.append("refresh: \(Redactor.mask)") }
            if let expires = fields[Field.expiresAt] { shown.append("expiresAt: \(expires)") }
            shown.append("client: \(clientID ?? "")")
            if clientSecret != nil { shown.append("secret: \(Redactor.mask)") }
            return "oauth2(\(shown.joined(separator: ", ")))"
        default:
            let shown = fields.keys.sorted().map { name in
                "\(name): \(name == Field.username ? fields[name] ?? "" : Redactor.mask)"
            }
            return "\(kind.rawValue)(\(shown.joined(separator: ", ")))"
        }
    }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// A JSON object key: the kind's name, or a field's name.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads `{"kind":{"field":"value",…}}`, the shape the enum `Credentials` of earlier versions
    /// wrote (its `.token(_:)` kept the token under `_0`; a `null` field is absent).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.typeMismatch(
                Credentials.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected one key, the credentials' kind"))
        }
        let kind = Kind(rawValue: key.stringValue)
        var fields = try container.decode([String: String?].self, forKey: key).compactMapValues { $0 }
        if kind == .token, fields[Field.token] == nil, let legacy = fields.removeValue(forKey: Field.legacyToken) {
            fields[Field.token] = legacy
        }
        for name in Self.requiredFields[kind] ?? [] where fields[name] == nil {
            throw DecodingError.keyNotFound(
                Key(stringValue: name),
                DecodingError.Context(codingPath: decoder.codingPath + [key], debugDescription: "\(kind.rawValue) credentials need \(name)"))
        }
        self.init(kind: kind, fields: fields)
    }

    /// Writes `{"kind":{"field":"value",…}}`, with the token of `.token(_:)` under `_0`, so that
    /// earlier versions of Strata read what this one writes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var stored = fields
        if kind == .token, let token = stored.removeValue(forKey: Field.token) { stored[Field.legacyToken] = token }
        try container.encode(stored, forKey: Key(stringValue: kind.rawValue))
    }
}
