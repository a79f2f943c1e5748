import Foundation
import ProviderAPI
import Testing
import HTTPProviderKit

@Suite("Digest: WWW-Authenticate parsing and answers")
struct DigestChallengeParsingTests {
    // MARK: The challenge grammar

    @Test("several challenges in one header, quoted strings with escapes (RFC 9110 section 11.6.1's example)")
    func severalInOneHeader() throws {
        let challenges = try AuthChallenge.parse([
            #"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#
        ])
        #expect(challenges.map(\.scheme) == ["newauth", "basic"])
        #expect(challenges[0]["realm"] == "apps")
        #expect(challenges[0]["type"] == "1")
        #expect(challenges[0]["title"] == #"Login to "apps""#)
        #expect(challenges[1]["realm"] == "simple")
    }

    @Test("several headers, scheme and parameter names in any case, lenient tokens")
    func severalHeadersAnyCase() throws {
        let challenges = try AuthChallenge.parse([
            #"Basic realm="dav""#,
            #"DIGEST REALM="r", Nonce="n", QOP="auth,auth-int", ALGORITHM=sha-256, domain=/dav/ , stale=TRUE"#,
        ])
        #expect(challenges.map(\.scheme) == ["basic", "digest"])
        let digest = try DigestChallenge(challenges[1])
        #expect(digest.realm == "r")
        #expect(digest.nonce == "n")
        #expect(digest.algorithm == .sha256)
        #expect(digest.qopAuth)
        #expect(digest.stale)
        #expect(challenges[1]["domain"] == "/dav/")
    }

    @Test("a token68 is told from parameters")
    func token68() throws {
        let challenges = try AuthChallenge.parse(["Negotiate YIIGhgYJK/oZ+==, Basic realm=x, NTLM", "Bearer"])
        #expect(challenges.map(\.scheme) == ["negotiate", "basic", "ntlm", "bearer"])
        #expect(challenges[0].token68 == "YIIGhgYJK/oZ+==")
        #expect(challenges[1]["realm"] == "x")
        #expect(challenges[2].parameters.isEmpty && challenges[2].token68 == nil)
    }

    @Test(
        "a malformed header is invalidResponse, never a crash",
        arguments: [
            #"Digest realm="unterminated"#, #"Digest realm=, nonce="n""#, #"Digest realm="a" nonce="b""#, "=", ", ,=x",
            #"Digest realm="a\"#, "Digest\u{0}realm",
        ])
    func malformed(_ value: String) throws {
        let error = #expect(throws: ProviderError.self) { try AuthChallenge.parse([value]) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message?.contains("malformed WWW-Authenticate") == true)
    }

    @Test("every prefix and every byte flip of a real challenge parses or throws, never traps")
    func prefixesAndFlips() {
        let header = Array(
            #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#
                .utf8)
        for end in 0...header.count {
            _ = try? AuthChallenge.parse([String(decoding: header[..<end], as: UTF8.self)])
        }
        for index in header.indices {
            for replacement in [UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: "\\"), 0x20, 0xff] {
                var copy = header
                copy[index] = replacement
                if let challenges = try? AuthChallenge.parse([String(decoding: copy, as: UTF8.self)]) {
                    _ = try? DigestChallenge.strongest(of: challenges)
                }
            }
        }
    }

    // MARK: Which Digest challenge

    @Test("a Digest challenge without a nonce or a realm is malformed")
    func missingNonce() throws {
        for value in [#"Digest realm="r""#, #"Digest nonce="n""#] {
            let challenges = try AuthChallenge.parse([value])
            let error = #expect(throws: ProviderError.self) { try DigestChallenge.strongest(of: challenges) }
            #expect(error?.code == .invalidResponse)
        }
    }

    @Test("the strongest algorithm offered wins; auth-int-only and unknown algorithms are unanswerable")
    func strongest() throws {
        let challenges = try AuthChallenge.parse([
            #"Digest realm="r", nonce="a", algorithm=MD5, qop="auth""#,
            #"Digest realm="r", nonce="b", algorithm=SHA-512-256, qop="auth""#,
            #"Digest realm="r", nonce="c", algorithm=SHA-256, qop="auth", Digest realm="r", nonce="d", algorithm=SHA-256-sess"#,
        ])
        let (best, _) = try DigestChallenge.strongest(of: challenges)
        #expect(best?.nonce == "c")
        #expect(best?.algorithm == .sha256)

        let refused = try AuthChallenge.parse([
            #"Digest realm="r", nonce="a", qop="auth-int""#, #"Digest realm="r", nonce="b", algorithm=SHA-512-256"#,
        ])
        let (none, reason) = try DigestChallenge.strongest(of: refused)
        #expect(none == nil)
        #expect(reason?.contains("auth-int") == true)
        #expect(reason?.contains("SHA-512-256") == true)
    }

    // MARK: Answers (the RFCs' worked examples)

    /// RFC 7616 section 3.9.1.
    private func rfc7616(_ algorithm: String) throws -> DigestChallenge {
        let value =
            #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=\#(algorithm), nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#
        return try DigestChallenge(try #require(AuthChallenge.parse([value]).first))
    }

    private let rfc7616Answer = DigestAnswer(
        username: "Mufasa", password: "Circle of Life", method: "GET", uri: "/dir/index.html", nonceCount: 1,
        cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")

    @Test("RFC 7616 section 3.9.1, MD5")
    func rfc7616MD5() throws {
        let challenge = try rfc7616("MD5")
        #expect(rfc7616Answer.response(to: challenge) == "8ca523f5e9506fed4657c9700eebdbec")
        let header = rfc7616Answer.header(for: challenge)
        #expect(header.hasPrefix("Digest "))
        let fields = try #require(AuthChallenge.parse([header]).first)
        #expect(fields["username"] == "Mufasa")
        #expect(fields["realm"] == "http-auth@example.org")
        #expect(fields["uri"] == "/dir/index.html")
        #expect(fields["algorithm"] == "MD5")
        #expect(fields["qop"] == "auth")
        #expect(fields["nc"] == "00000001")
        #expect(fields["cnonce"] == "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
        #expect(fields["opaque"] == "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS")
        #expect(fields["response"] == "8ca523f5e9506fed4657c9700eebdbec")
    }

    @Test("RFC 7616 section 3.9.1, SHA-256")
    func rfc7616SHA256() throws {
        let challenge = try rfc7616("SHA-256")
        #expect(
            rfc7616Answer.response(to: challenge) == "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
        #expect(rfc7616Answer.header(for: challenge).contains("algorithm=SHA-256,"))
    }

    @Test("SHA-256-sess hashes A1 again with the nonce and cnonce")
    func sha256Session() throws {
        let challenge = try rfc7616("SHA-256-sess")
        #expect(
            rfc7616Answer.response(to: challenge) == "2fd51b3a77ad75bad6afad6003e818d767133c46d9e2749e7f5232ae1ea3efd7")
    }

    @Test("RFC 2617 section 3.5, and the RFC 2069 form without qop")
    func rfc2617() throws {
        let value =
            #"Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#
        let challenge = try DigestChallenge(try #require(AuthChallenge.parse([value]).first))
        let answer = DigestAnswer(
            username: "Mufasa", password: "Circle Of Life", method: "GET", uri: "/dir/index.html", nonceCount: 1, cnonce: "0a4f113b")
        #expect(answer.response(to: challenge) == "6629fae49393a05397450978507c4ef1")
        let header = answer.header(for: challenge)
        #expect(!header.contains("algorithm="), "an algorithm the server did not name is not sent")
        #expect(header.contains(#"opaque="5ccc069c403ebaf9f0171e9517f40e41""#))

        var old = challenge
        old.qopAuth = false
        #expect(answer.response(to: old) == "670fd8c2df070c60b045671b8b24ff02")
        let oldHeader = answer.header(for: old)
        #expect(!oldHeader.contains("qop=") && !oldHeader.contains("nc=") && !oldHeader.contains("cnonce="))
    }

    @Test("userhash sends H(user:realm) as the user name; a name a quoted string cannot carry goes as username*")
    func userNames() throws {
        var challenge = try rfc7616("SHA-256")
        challenge.userhash = true
        let fields = try #require(AuthChallenge.parse([rfc7616Answer.header(for: challenge)]).first)
        #expect(fields["username"] == "a947aad205e80e429958a387394944c6b496301e79f89d35a4cc23b6ee12b5b6")
        #expect(fields["userhash"] == "true")
        // The response still hashes the real name.
        #expect(fields["response"] == "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")

        challenge.userhash = false
        var answer = rfc7616Answer
        answer.username = "Jäsøn Doe"
        let header = answer.header(for: challenge)
        #expect(header.contains("username*=UTF-8''J%C3%A4s%C3%B8n%20Doe"))
        answer.username = #"ann "the" \admin"#
        let escaped = try #require(AuthChallenge.parse([answer.header(for: challenge)]).first)
        #expect(escaped["username"] == #"ann "the" \admin"#)
    }

    @Test(
        "the uri is the request-target as sent: percent-encoded path and query",
        arguments: [
            ("http://h:1/dir/a%20b%23c.txt", "/dir/a%20b%23c.txt"), ("http://h:1", "/"), ("http://h:1/?x=1&y=%2F", "/?x=1&y=%2F"),
            ("http://h:1/caf%C3%A9/", "/caf%C3%A9/"),
        ])
    func requestTarget(_ pair: (String, String)) throws {
        #expect(DigestAnswer.requestTarget(of: try #require(URL(string: pair.0))) == pair.1)
    }

    @Test("nc is eight hex digits; each cnonce is fresh")
    func counts() {
        var answer = rfc7616Answer
        answer.nonceCount = 0x1a
        #expect(answer.nc == "0000001a")
        #expect(DigestAnswer.makeCnonce() != DigestAnswer.makeCnonce())
        #expect(DigestAnswer.makeCnonce().count == 32)
    }
}
