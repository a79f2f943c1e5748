import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderKit
import StrataTestSupport
import Testing

/// `Credentials` as it was before it became a struct: an enum with a synthesized `Codable`, the
/// code that wrote the saved logins users have on disk.
private enum LegacyCredentials: Codable, Hashable {
    case none
    case basic(username: String, password: String)
    case appPassword(username: String, password: String)
    case token(String)
    case bearer(accessToken: String, refreshToken: String?)
}

/// Each kind, as the enum wrote it (keys sorted) and as the struct makes it.
private let shapes: [(json: String, legacy: LegacyCredentials, credentials: Credentials)] = [
    (#"{"none":{}}"#, .none, .none),
    (#"{"basic":{"password":"p","username":"u"}}"#, .basic(username: "u", password: "p"), .basic(username: "u", password: "p")),
    (
        #"{"appPassword":{"password":"p","username":"u"}}"#, .appPassword(username: "u", password: "p"),
        .appPassword(username: "u", password: "p")
    ),
    (#"{"token":{"_0":"t"}}"#, .token("t"), .token("t")),
    (
        #"{"bearer":{"accessToken":"a","refreshToken":"r"}}"#, .bearer(accessToken: "a", refreshToken: "r"),
        .bearer(accessToken: "a", refreshToken: "r")
    ),
    (#"{"bearer":{"accessToken":"a"}}"#, .bearer(accessToken: "a", refreshToken: nil), .bearer(accessToken: "a")),
]

private func sortedJSON<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

@Suite("Credentials")
struct CredentialsTests {
    @Test("the shapes the enum wrote decode, literally and field for field", arguments: shapes.indices)
    func decodesLegacyShapes(_ index: Int) throws {
        let shape = shapes[index]
        let decoded = try JSONDecoder().decode(Credentials.self, from: Data(shape.json.utf8))
        #expect(decoded == shape.credentials)
        // What the enum wrote for the same value is that very text.
        #expect(try sortedJSON(shape.legacy) == shape.json)
    }

    @Test("what the struct writes is the enum's shape: the enum reads it back, and so does the struct", arguments: shapes.indices)
    func writesLegacyShapes(_ index: Int) throws {
        let shape = shapes[index]
        #expect(try sortedJSON(shape.credentials) == shape.json)
        let data = try JSONEncoder().encode(shape.credentials)
        #expect(try JSONDecoder().decode(LegacyCredentials.self, from: data) == shape.legacy)
        #expect(try JSONDecoder().decode(Credentials.self, from: data) == shape.credentials)
    }

    @Test("other spellings the enum's decoder accepted still decode")
    func legacyVariants() throws {
        let decoder = JSONDecoder()
        #expect(
            try decoder.decode(Credentials.self, from: Data(#"{"bearer":{"accessToken":"a","refreshToken":null}}"#.utf8))
                == .bearer(accessToken: "a"))
        #expect(
            try decoder.decode(Credentials.self, from: Data(#"{"basic":{"username":"u","password":"p"}}"#.utf8))
                == .basic(username: "u", password: "p"))
    }

    @Test("a stored login missing a field its kind needs, or with two kinds, is refused as the enum refused it", arguments: [
        #"{"basic":{"username":"u"}}"#, #"{"appPassword":{"password":"p"}}"#, #"{"token":{}}"#, #"{"bearer":{"refreshToken":"r"}}"#,
        #"{"basic":{"username":"u","password":"p"},"none":{}}"#, #"{}"#, #"{"basic":{"username":3,"password":"p"}}"#,
    ])
    func refusesBrokenShapes(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Credentials.self, from: Data(json.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LegacyCredentials.self, from: Data(json.utf8)) }
    }

    @Test("a saved-logins file written by the enum is read by FileCredentialStore, and rewriting it keeps every entry")
    func fileWrittenByTheEnum() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("credentials.json")
        // Literally what FileCredentialStore wrote with the enum (pretty-printed, keys sorted).
        let legacy = """
            {
              "cloud" : {
                "bearer" : {
                  "accessToken" : "at",
                  "refreshToken" : "rt"
                }
              },
              "nx" : {
                "token" : {
                  "_0" : "tok"
                }
              },
              "open" : {
                "none" : {

                }
              },
              "work" : {
                "basic" : {
                  "password" : "hunter2",
                  "username" : "ann"
                }
              }
            }
            """
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data(legacy.utf8), attributes: [.posixPermissions: 0o600]))
        let store = FileCredentialStore(url: file)
        #expect(try await store.keys() == ["cloud", "nx", "open", "work"])
        #expect(try await store.credentials(for: "work") == .basic(username: "ann", password: "hunter2"))
        #expect(try await store.credentials(for: "cloud") == .bearer(accessToken: "at", refreshToken: "rt"))
        #expect(try await store.credentials(for: "nx") == .token("tok"))
        #expect(try await store.credentials(for: "open") == Credentials.none)

        try await store.setCredentials(.appPassword(username: "bob", password: "app"), for: "nc")
        let rewritten = try JSONDecoder().decode([String: LegacyCredentials].self, from: try Data(contentsOf: file))
        #expect(
            rewritten == [
                "cloud": .bearer(accessToken: "at", refreshToken: "rt"), "nx": .token("tok"), "open": .none,
                "work": .basic(username: "ann", password: "hunter2"), "nc": .appPassword(username: "bob", password: "app"),
            ])
    }

    @Test("adapters read what they need through accessors, whatever the kind")
    func accessors() {
        let basic = Credentials.basic(username: "ann", password: "pw")
        #expect(basic.kind == .basic && basic.username == "ann" && basic.password == "pw" && basic.token == nil)
        let app = Credentials.appPassword(username: "bob", password: "ap")
        #expect(app.kind == .appPassword && app.username == "bob" && app.password == "ap")
        let token = Credentials.token("t")
        #expect(token.kind == .token && token.token == "t" && token.username == nil && token.accessToken == nil)
        let bearer = Credentials.bearer(accessToken: "a", refreshToken: "r")
        #expect(bearer.kind == .bearer && bearer.accessToken == "a" && bearer.refreshToken == "r" && bearer.token == nil)
        #expect(Credentials.bearer(accessToken: "a").refreshToken == nil)
        #expect(Credentials.none.kind == .none && Credentials.none.username == nil && Credentials.none.password == nil)
        #expect(basic != app, "the kind tells an app password from a password")
    }

    @Test("HTTP authentication is chosen from the fields, as the enum's switch chose it")
    func httpAuthenticator() {
        #expect(Credentials.none.httpAuthenticator() is NoAuthenticator)
        #expect(Credentials.basic(username: "u", password: "p").httpAuthenticator() is PasswordAuthenticator)
        #expect(Credentials.appPassword(username: "u", password: "p").httpAuthenticator() is PasswordAuthenticator)
        #expect(Credentials.token("t").httpAuthenticator() is BearerAuthenticator)
        #expect(Credentials.bearer(accessToken: "a").httpAuthenticator() is BearerAuthenticator)
    }

    @Test("an adapter's own kind keeps its fields through a credential store and never prints a secret")
    func adapterKind() async throws {
        let kind = Credentials.Kind(rawValue: "accessKey")
        let key = Credentials(kind: kind, fields: ["username": "ann", "keyID": "AKID-S3CRET", "secret": "sk-S3CRET"])
        #expect(key.kind == kind && key.username == "ann" && key[field: "secret"] == "sk-S3CRET" && key.password == nil)
        #expect(try sortedJSON(key) == #"{"accessKey":{"keyID":"AKID-S3CRET","secret":"sk-S3CRET","username":"ann"}}"#)
        #expect(try JSONDecoder().decode(Credentials.self, from: try JSONEncoder().encode(key)) == key)
        for text in [key.description, String(reflecting: key), "\(key)"] {
            #expect(!text.contains("S3CRET"), "leaked: \(text)")
            #expect(text.contains("ann"))
        }

        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = FileCredentialStore(url: dir.file("credentials.json"))
        try await store.setCredentials(key, for: "s3")
        try await store.setCredentials(.basic(username: "u", password: "p"), for: "other")
        #expect(try await FileCredentialStore(url: dir.file("credentials.json")).credentials(for: "s3") == key)
    }

    @Test("a field this version does not know survives a rewrite of the saved logins")
    func unknownFieldsKept() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("credentials.json")
        // As a later version might write a bearer login with a field of its own.
        let later = #"{"cloud":{"bearer":{"accessToken":"at","expires":"2030-01-01T00:00:00Z"}}}"#
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data(later.utf8), attributes: [.posixPermissions: 0o600]))
        let store = FileCredentialStore(url: file)
        #expect(try await store.credentials(for: "cloud")?.accessToken == "at")
        try await store.setCredentials(.token("t"), for: "nx")
        let kept = try #require(try await store.credentials(for: "cloud"))
        #expect(kept[field: "expires"] == "2030-01-01T00:00:00Z")
        #expect(kept.kind == .bearer)
    }

    @Test("a switch over the kind needs a default, so a new kind breaks nobody")
    func kindSwitch() {
        func label(_ credentials: Credentials) -> String {
            switch credentials.kind {
            case .basic, .appPassword: return "password"
            case .token, .bearer: return "token"
            case .none: return "none"
            default: return "other"
            }
        }
        #expect(label(.basic(username: "u", password: "p")) == "password")
        #expect(label(.bearer(accessToken: "a")) == "token")
        #expect(label(.none) == "none")
        #expect(label(Credentials(kind: Credentials.Kind(rawValue: "later"), fields: [:])) == "other")
    }
}
