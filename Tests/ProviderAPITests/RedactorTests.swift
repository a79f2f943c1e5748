import Foundation
import NIOHTTP1
import ProviderAPI
import Testing
import HTTPProviderKit

@Suite("Redactor and secrets")
struct RedactorTests {
    @Test("URL user info is removed and secret query values are masked")
    func url() throws {
        let redacted = Redactor.redact(url: URL(string: "https://ann:hunter2@dav.example.com:8443/files/a.txt?token=abc123&x=1&Password=pw9&list")!)
        #expect(!redacted.contains("ann"))
        #expect(!redacted.contains("hunter2"))
        #expect(!redacted.contains("abc123"))
        #expect(!redacted.contains("pw9"))
        #expect(redacted.hasPrefix("https://dav.example.com:8443/files/a.txt?"))
        #expect(redacted.contains("token=\(Redactor.mask)"))
        #expect(redacted.contains("Password=\(Redactor.mask)"))
        #expect(redacted.contains("x=1"))
        #expect(redacted.contains("list"))
    }

    @Test("user info of a URL missing its // is masked, in the URL and in free text", arguments: [
        "webdav:ann:hunter2@host/dav/x", "webdavs:ann:hunter2@host:8443/x?token=t0k", "nextcloud:ann:hunter2@cloud.example",
    ])
    func opaqueUserInfo(_ target: String) throws {
        let url = try #require(URL(string: target))
        let redacted = Redactor.redact(url: url)
        #expect(!redacted.contains("hunter2") && !redacted.contains("ann") && !redacted.contains("t0k"), "\(redacted)")
        #expect(redacted.hasPrefix("\(url.scheme ?? ""):\(Redactor.mask)@"), "\(redacted)")
        let path = Redactor.redact(url: url, includeHost: false)
        #expect(!path.contains("hunter2") && !path.contains("ann"), "\(path)")
        let text = Redactor.redact("invalidArgument: invalid URL \(target) (given on the command line)")
        #expect(!text.contains("hunter2") && text.contains("(given on the command line)"), "\(text)")
        // A message with colons and an @ but no user and password keeps its words.
        #expect(Redactor.redact("error: mail ann@host failed at 10:20") == "error: mail ann@host failed at 10:20")
    }

    @Test("every secret query name is masked", arguments: Array(Redactor.secretQueryNames).sorted())
    func secretQueryNames(_ name: String) {
        let redacted = Redactor.redact(url: URL(string: "http://127.0.0.1/a?\(name)=S3CRET&keep=yes")!)
        #expect(!redacted.contains("S3CRET"), "\(name): \(redacted)")
        #expect(redacted.contains("keep=yes"))
    }

    @Test("a percent-encoded secret value is masked too")
    func encodedSecret() {
        let redacted = Redactor.redact(url: URL(string: "http://h/x?access_token=a%2Bb%3Dc&n=%C3%A9")!)
        #expect(!redacted.contains("a%2Bb"))
        #expect(redacted.contains("n=%C3%A9"))
    }

    @Test("without the host only path and masked query remain")
    func withoutHost() {
        let url = URL(string: "https://u:p@h.example/p%20q/r?secure_token=zz9&q=1")!
        #expect(Redactor.redact(url: url, includeHost: false) == "/p%20q/r?secure_token=\(Redactor.mask)&q=1")
        #expect(Redactor.redact(url: URL(string: "https://h.example")!, includeHost: false) == "/")
        #expect(Redactor.redact(url: URL(string: "https://h.example/a?b=c")!, includeHost: false) == "/a?b=c")
    }

    @Test("a request summary never carries a secret")
    func summary() {
        let request = TransportRequest(method: .GET, url: URL(string: "https://ann:pw@h.example/index.php?get_action=ls&secure_token=T0K3N")!)
        #expect(request.summary == "GET /index.php?get_action=ls&secure_token=\(Redactor.mask)")
    }

    @Test("secret headers are masked")
    func headers() {
        let headers: HTTPHeaders = [
            "Authorization": "Basic YW5uOmh1bnRlcjI=", "Cookie": "session=abc", "Set-Cookie": "sid=zz; Path=/",
            "X-Auth-Token": "tok", "Proxy-Authorization": "Bearer pp", "Depth": "1", "Content-Type": "text/xml",
        ]
        let lines = Redactor.redact(headers: headers)
        let joined = lines.joined(separator: "\n")
        for secret in ["YW5uOmh1bnRlcjI=", "session=abc", "sid=zz", "tok", "Bearer pp"] {
            #expect(!joined.contains(secret), "\(secret) leaked")
        }
        #expect(lines.contains("Authorization: \(Redactor.mask)"))
        #expect(lines.contains("Cookie: \(Redactor.mask)"))
        #expect(lines.contains("Depth: 1"))
        #expect(lines.contains("Content-Type: text/xml"))
        #expect(lines.count == 7)
    }

    @Test("free text: Basic and Bearer tokens, user info and query secrets are masked")
    func text() {
        let cases: [(String, [String])] = [
            ("Authorization: Basic YW5uOmh1bnRlcjI=", ["YW5uOmh1bnRlcjI="]),
            ("header was bearer eyJhbGciOi.J9.sig-_~ rest", ["eyJhbGciOi", "J9.sig"]),
            ("failed to reach https://ann:hunter2@dav.example.com/x", ["hunter2", "ann:"]),
            ("GET http://h/a?token=abc&password=p4ss done", ["abc", "p4ss"]),
            ("redirect to 'https://h/a?access_token=zz1'", ["zz1"]),
        ]
        for (text, secrets) in cases {
            let redacted = Redactor.redact(text)
            for secret in secrets { #expect(!redacted.contains(secret), "\(secret) leaked from \(redacted)") }
            #expect(redacted.contains(Redactor.mask), "\(redacted)")
        }
        #expect(Redactor.redact("nothing secret here: GET /a/b?x=1") == "nothing secret here: GET /a/b?x=1")
        #expect(Redactor.redact("https://ann:hunter2@h/x") == "https://\(Redactor.mask)@h/x")
    }

    @Test("Credentials never print their secrets", arguments: [
        Credentials.basic(username: "ann", password: "hunter2-S3CRET"),
        .appPassword(username: "ann", password: "app-S3CRET"),
        .token("tok-S3CRET"),
        .bearer(accessToken: "access-S3CRET", refreshToken: "refresh-S3CRET"),
        .bearer(accessToken: "access-S3CRET", refreshToken: nil),
        .none,
    ])
    func credentials(_ credentials: Credentials) {
        var dumped = ""
        dump(credentials, to: &dumped)
        let renderings = [
            credentials.description, String(describing: credentials), String(reflecting: credentials), "\(credentials)",
            "\([credentials])", "\(Optional(credentials) as Any)", dumped,
            Mirror(reflecting: credentials).children.map { "\($0.label ?? ""): \($0.value)" }.joined(),
        ]
        for text in renderings {
            #expect(!text.contains("S3CRET"), "leaked: \(text)")
        }
        if credentials.username != nil { #expect(credentials.description.contains("ann")) }
    }

    @Test("Credentials keep their secrets when encoded for a credential store")
    func credentialsCodable() throws {
        let all: [Credentials] = [
            .basic(username: "a", password: "p"), .appPassword(username: "b", password: "q"), .token("t"),
            .bearer(accessToken: "x", refreshToken: "y"), .bearer(accessToken: "x", refreshToken: nil), .none,
        ]
        let decoded = try JSONDecoder().decode([Credentials].self, from: try JSONEncoder().encode(all))
        #expect(decoded == all)
    }

    @Test("authenticators never print their secrets")
    func authenticators() {
        let basic = BasicAuthenticator(username: "ann", password: "hunter2")
        let header = Data("ann:hunter2".utf8).base64EncodedString()
        var dumped = ""
        dump(basic, to: &dumped)
        for text in [basic.description, String(describing: basic), String(reflecting: basic), dumped] {
            #expect(!text.contains("hunter2"))
            #expect(!text.contains(header), "the Basic header leaked: \(text)")
        }
        let bearer = BearerAuthenticator(token: "tok-S3CRET")
        var dumpedBearer = ""
        dump(bearer, to: &dumpedBearer)
        for text in [String(describing: bearer), String(reflecting: bearer), dumpedBearer] {
            #expect(!text.contains("S3CRET"), "leaked: \(text)")
        }
    }
}
