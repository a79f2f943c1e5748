import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing
import HTTPProviderKit
import Logging

private let base = url("http://127.0.0.1:8080/dav/")
private let basicHeader = "Basic " + Data("ann:pw".utf8).base64EncodedString()

private func executor(_ transport: ScriptedTransport, _ auth: any Authenticator) -> RequestExecutor {
    RequestExecutor(transport: transport, authenticator: auth, retry: fastRetry, logger: quietLogger)
}

private func digest(
    nonce: String, algorithm: String? = "MD5", qop: String? = "auth", stale: Bool = false, realm: String = "dav zone", extra: String = ""
) -> ScriptedStep {
    var value = #"Digest realm="\#(realm)", nonce="\#(nonce)", opaque="op4que""#
    if let algorithm { value += ", algorithm=\(algorithm)" }
    if let qop { value += #", qop="\#(qop)""# }
    if stale { value += ", stale=true" }
    return .status(401, [("WWW-Authenticate", value + extra)])
}

/// The parameters of a recorded request's `Authorization: Digest …`.
private func digestFields(_ request: RecordedRequest) throws -> AuthChallenge {
    let value = try #require(request.header("Authorization"))
    let challenge = try #require(AuthChallenge.parse([value]).first)
    try #require(challenge.scheme == "digest")
    return challenge
}

/// The `response` a server that knows the password `pw` expects for `fields`.
private func expectedResponse(_ fields: AuthChallenge, method: String, algorithm: DigestAuthAlgorithm = .md5) throws -> String {
    let challenge = try DigestChallenge(
        AuthChallenge(
            scheme: "digest",
            parameters: [
                ("realm", try #require(fields["realm"])), ("nonce", try #require(fields["nonce"])), ("qop", fields["qop"] ?? ""),
                ("algorithm", algorithm.rawValue),
            ].filter { !$0.1.isEmpty }))
    let answer = DigestAnswer(
        username: "ann", password: "pw", method: method, uri: try #require(fields["uri"]),
        nonceCount: UInt32(fields["nc"] ?? "0", radix: 16) ?? 0, cnonce: fields["cnonce"] ?? "")
    return answer.response(to: challenge)
}

@Suite("Digest: PasswordAuthenticator against scripted servers")
struct DigestAuthenticatorTests {
    @Test("a Basic server: Basic up front, one request, as before")
    func basicServer() async throws {
        let transport = ScriptedTransport([.status(207), .status(207)])
        let auth = Credentials.basic(username: "ann", password: "pw").httpAuthenticator()
        #expect(auth is PasswordAuthenticator)
        for _ in 0..<2 {
            #expect(try await executor(transport, auth).execute(TransportRequest(method: .PROPFIND, url: base)).status == 207)
        }
        #expect(transport.requests.map { $0.header("Authorization") } == [basicHeader, basicHeader])
    }

    @Test("a Basic server refusing the password: one request, the 401 stands")
    func basicWrongPassword() async throws {
        let transport = ScriptedTransport([.status(401, [("WWW-Authenticate", #"Basic realm="dav""#)]), .status(200)])
        let auth = PasswordAuthenticator(username: "ann", password: "pw")
        #expect(try await executor(transport, auth).execute(TransportRequest(method: .GET, url: base)).status == 401)
        #expect(transport.count == 1)
    }

    @Test("a Digest challenge switches to Digest for good: the request is replayed, later ones are signed up front, Basic never again")
    func switchToDigest() async throws {
        let transport = ScriptedTransport([
            digest(nonce: "n1"), .status(207), .status(200),
            .status(401, [("WWW-Authenticate", #"Basic realm="dav""#)]),
        ])
        let auth = PasswordAuthenticator(username: "ann", password: "pw")
        let exec = executor(transport, auth)
        let target = base.appendingPathComponent("a b.txt")
        #expect(try await exec.execute(TransportRequest(method: .PROPFIND, url: base)).status == 207)
        #expect(await auth.scheme == .digest)
        #expect(try await exec.execute(TransportRequest(method: .GET, url: target)).status == 200)
        // A later challenge for Basic alone is refused: the password is not sent in Basic again.
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 401)

        let requests = transport.requests
        #expect(requests.count == 4)
        #expect(requests[0].header("Authorization") == basicHeader)
        let first = try digestFields(requests[1])
        #expect(first["nonce"] == "n1")
        #expect(first["nc"] == "00000001")
        #expect(first["uri"] == "/dav/")
        #expect(first["opaque"] == "op4que")
        #expect(first["username"] == "ann")
        #expect(first["response"] == (try expectedResponse(first, method: "PROPFIND")))
        let second = try digestFields(requests[2])
        #expect(second["nc"] == "00000002")
        #expect(second["uri"] == "/dav/a%20b.txt")
        #expect(second["cnonce"] != first["cnonce"])
        #expect(second["response"] == (try expectedResponse(second, method: "GET")))
        #expect(requests.dropFirst().allSatisfy { $0.header("Authorization")?.hasPrefix("Digest ") == true })
    }

    @Test("a wrong password over Digest is a 401 after one replay, never a loop")
    func wrongPasswordNoLoop() async throws {
        let transport = ScriptedTransport([], fallback: digest(nonce: "n1"))
        let auth = PasswordAuthenticator(username: "ann", password: "pw")
        let exec = executor(transport, auth)
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 401)
        #expect(transport.count == 2, "Basic, then one Digest answer")
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 401)
        #expect(transport.count == 3, "the refused nonce is not answered again")
    }

    @Test("stale=true takes the new nonce and replays: the nonce count starts again, no failure")
    func staleRenewal() async throws {
        let transport = ScriptedTransport([
            digest(nonce: "n1"), .status(200), digest(nonce: "n2", stale: true), .status(200), .status(200),
        ])
        let auth = PasswordAuthenticator(username: "ann", password: "pw")
        let exec = executor(transport, auth)
        for _ in 0..<3 {
            #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        }
        let fields = try transport.requests.dropFirst().map(digestFields)
        #expect(fields.map { $0["nonce"] } == ["n1", "n1", "n2", "n2"])
        #expect(fields.map { $0["nc"] } == ["00000001", "00000002", "00000001", "00000002"])
    }

    @Test("nonce counts stay distinct and complete under concurrent requests")
    func concurrentNonceCounts() async throws {
        let transport = ScriptedTransport([digest(nonce: "n1")], fallback: .status(200))
        let auth = PasswordAuthenticator(username: "ann", password: "pw")
        let exec = executor(transport, auth)
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try await exec.execute(TransportRequest(method: .GET, url: base.appendingPathComponent("f\(index)"))).status
                }
            }
            for try await status in group { #expect(status == 200) }
        }
        let counts = try transport.requests.dropFirst().map { try digestFields($0)["nc"].flatMap { UInt32($0, radix: 16) } }
        #expect(counts.count == 65)
        #expect(Set(counts.compactMap { $0 }) == Set(1...65))
    }

    @Test("requests that went out with Basic while another switched are replayed with Digest; one switch, one nonce")
    func concurrentSwitch() async throws {
        let learnt = Counter()
        let auth = PasswordAuthenticator(username: "ann", password: "pw", policy: .automatic) { learnt.increment() }
        var sent: [TransportRequest] = []
        for _ in 0..<4 {
            var request = TransportRequest(method: .GET, url: base)
            try await auth.authorize(&request)
            sent.append(request)
        }
        for (index, request) in sent.enumerated() {
            var headers = HTTPHeaders()
            headers.add(name: "WWW-Authenticate", value: #"Digest realm="r", nonce="n\#(index)", qop="auth""#)
            let response = TransportResponse(status: 401, headers: headers, url: base)
            #expect(try await auth.refresh(after: response, for: request), "request \(index) is replayed")
        }
        #expect(learnt.value == 1)
        var replay = TransportRequest(method: .GET, url: base)
        try await auth.authorize(&replay)
        let value = try #require(replay.headers.first(name: "Authorization"))
        let fields = try #require(AuthChallenge.parse([value]).first)
        #expect(fields["nonce"] == "n0", "the first switch's nonce is kept, not replaced by each late challenge")
    }

    @Test("the strongest of several challenges is answered")
    func strongestChosen() async throws {
        let transport = ScriptedTransport([
            .status(
                401,
                [
                    ("WWW-Authenticate", #"Digest realm="r", nonce="md5", algorithm=MD5, qop="auth""#),
                    ("WWW-Authenticate", #"Digest realm="r", nonce="sha", algorithm=SHA-256, qop="auth", Basic realm="r""#),
                ]), .status(200),
        ])
        let exec = executor(transport, PasswordAuthenticator(username: "ann", password: "pw"))
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        let fields = try digestFields(transport.requests[1])
        #expect(fields["algorithm"] == "SHA-256")
        #expect(fields["nonce"] == "sha")
        #expect(fields["response"] == (try expectedResponse(fields, method: "GET", algorithm: .sha256)))
    }

    @Test("digestOnly: the first request carries nothing, a Basic-only server is refused without the password")
    func digestOnlyRefusesBasic() async throws {
        let transport = ScriptedTransport([.status(401, [("WWW-Authenticate", #"Basic realm="dav""#)])])
        let auth = PasswordAuthenticator(username: "ann", password: "pw", policy: .digestOnly)
        let error = await #expect(throws: ProviderError.self) {
            try await executor(transport, auth).execute(TransportRequest(method: .GET, url: base))
        }
        #expect(error?.code == .unauthorized)
        #expect(error?.message?.contains("no sign-in but Basic,") == true, "not taken for a secret by the redactor")
        #expect(transport.count == 1)
        #expect(transport.requests[0].header("Authorization") == nil)
    }

    @Test("digestOnly and challengeFirst answer a Digest server after one unauthenticated request")
    func challengeFirst() async throws {
        for policy in [PasswordAuthenticator.Policy.digestOnly, .challengeFirst] {
            let transport = ScriptedTransport([digest(nonce: "n", algorithm: nil, qop: nil), .status(200)])
            let exec = executor(transport, PasswordAuthenticator(username: "ann", password: "pw", policy: policy))
            #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
            #expect(transport.requests[0].header("Authorization") == nil)
            let fields = try digestFields(transport.requests[1])
            #expect(fields["qop"] == nil && fields["nc"] == nil, "RFC 2069 form for a server without qop")
            #expect(fields["response"] == (try expectedResponse(fields, method: "GET")))
        }
    }

    @Test("challengeFirst falls back to Basic when the server offers only Basic")
    func challengeFirstBasic() async throws {
        let transport = ScriptedTransport([.status(401, [("WWW-Authenticate", #"Basic realm="dav""#)]), .status(200)])
        let exec = executor(transport, PasswordAuthenticator(username: "ann", password: "pw", policy: .challengeFirst))
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        #expect(transport.requests.map { $0.header("Authorization") } == [nil, basicHeader])
    }

    @Test("a challenge for qop=auth-int only is unsupported; a malformed Digest challenge is invalidResponse")
    func refusedChallenges() async throws {
        let authInt = ScriptedTransport([digest(nonce: "n", qop: "auth-int")])
        let error = await #expect(throws: ProviderError.self) {
            try await executor(authInt, PasswordAuthenticator(username: "ann", password: "pw")).execute(
                TransportRequest(method: .GET, url: base))
        }
        #expect(error?.code == .unsupported)
        #expect(error?.message?.contains("auth-int") == true)

        let garbled = ScriptedTransport([.status(401, [("WWW-Authenticate", #"Digest realm="r", nonce="n"#)])])
        let malformed = await #expect(throws: ProviderError.self) {
            try await executor(garbled, PasswordAuthenticator(username: "ann", password: "pw")).execute(
                TransportRequest(method: .GET, url: base))
        }
        #expect(malformed?.code == .invalidResponse)
    }

    @Test("a one-shot upload as the first request of digestOnly fetches the challenge first with a bodiless OPTIONS")
    func oneShotFirst() async throws {
        let sequence = OneShotSequence([Array("body".utf8)])
        let transport = ScriptedTransport([digest(nonce: "n1"), .status(201)])
        let auth = PasswordAuthenticator(username: "ann", password: "pw", policy: .digestOnly)
        let request = TransportRequest(method: .PUT, url: base.appendingPathComponent("f"), body: .source(AsyncSequenceSource(sequence)))
        #expect(try await executor(transport, auth).execute(request).status == 201)
        let requests = transport.requests
        #expect(requests.map(\.method) == ["OPTIONS", "PUT"])
        #expect(requests[0].header("Authorization") == nil && requests[0].body == nil)
        let fields = try digestFields(requests[1])
        #expect(fields["nonce"] == "n1" && fields["nc"] == "00000001")
        #expect(fields["response"] == (try expectedResponse(fields, method: "PUT")))
        #expect(sequence.timesIterated == 1)
    }

    @Test("a one-shot upload with an old nonce takes a fresh one first; a Basic session sends no probe")
    func oneShotOldNonce() async throws {
        let transport = ScriptedTransport([digest(nonce: "n1"), .status(200), digest(nonce: "n2"), .status(201)])
        let auth = PasswordAuthenticator(username: "ann", password: "pw", policy: .automatic, onDigest: nil, nonceFreshFor: .zero)
        let exec = executor(transport, auth)
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        let upload = TransportRequest(
            method: .PUT, url: base.appendingPathComponent("f"), body: .source(AsyncSequenceSource(OneShotSequence([Array("x".utf8)]))))
        #expect(try await exec.execute(upload).status == 201)
        let requests = transport.requests
        #expect(requests.map(\.method) == ["GET", "GET", "OPTIONS", "PUT"])
        let fields = try digestFields(requests[3])
        #expect(fields["nonce"] == "n2" && fields["nc"] == "00000001")

        // A Basic session: once Basic has gone out, no probe before a one-shot upload.
        let basic = ScriptedTransport([.status(207), .status(201)])
        let onBasic = PasswordAuthenticator(username: "ann", password: "pw", policy: .automatic, onDigest: nil, nonceFreshFor: .zero)
        #expect(try await executor(basic, onBasic).execute(TransportRequest(method: .PROPFIND, url: base)).status == 207)
        let plain = TransportRequest(
            method: .PUT, url: base.appendingPathComponent("f"), body: .source(AsyncSequenceSource(OneShotSequence([Array("x".utf8)]))))
        #expect(try await executor(basic, onBasic).execute(plain).status == 201)
        #expect(basic.requests.map(\.method) == ["PROPFIND", "PUT"])
        #expect(basic.requests.map { $0.header("Authorization") } == [basicHeader, basicHeader])
    }

    @Test("automatic: a one-shot upload as the very first request reaches a Digest-only server, its body sent once")
    func oneShotFirstOnAutomatic() async throws {
        let sequence = OneShotSequence([Array("body".utf8)])
        let transport = ScriptedTransport([digest(nonce: "n1"), .status(201), .status(201)])
        let auth = PasswordAuthenticator(username: "ann", password: "pw", policy: .automatic)
        let exec = executor(transport, auth)
        let request = TransportRequest(method: .PUT, url: base.appendingPathComponent("f"), body: .source(AsyncSequenceSource(sequence)))
        #expect(try await exec.execute(request).status == 201)
        let requests = transport.requests
        #expect(requests.map(\.method) == ["OPTIONS", "PUT"])
        #expect(requests[0].header("Authorization") == nil && requests[0].body == nil, "the probe carries neither password nor body")
        let fields = try digestFields(requests[1])
        #expect(fields["nonce"] == "n1")
        #expect(try fields["response"] == expectedResponse(fields, method: "PUT"))
        #expect(sequence.timesIterated == 1)
        #expect(await auth.scheme == .digest)
    }

    @Test("automatic on a Basic server: the first request, a one-shot upload, costs one probe, then Basic as before")
    func oneShotFirstOnBasicServer() async throws {
        let transport = ScriptedTransport([.status(401, [("WWW-Authenticate", #"Basic realm="dav""#)]), .status(201), .status(201)])
        let auth = PasswordAuthenticator(username: "ann", password: "pw", policy: .automatic)
        let exec = executor(transport, auth)
        for name in ["f", "g"] {
            let upload = TransportRequest(
                method: .PUT, url: base.appendingPathComponent(name), body: .source(AsyncSequenceSource(OneShotSequence([Array("x".utf8)]))))
            #expect(try await exec.execute(upload).status == 201)
        }
        #expect(transport.requests.map(\.method) == ["OPTIONS", "PUT", "PUT"])
        #expect(transport.requests.map { $0.header("Authorization") } == [nil, basicHeader, basicHeader])
        #expect(await auth.scheme == .basic)
    }

    @Test("no secret in the trace log of a switch to Digest: neither the password, the Basic header, H(A1) nor the response")
    func noSecretsLogged() async throws {
        let records = LogRecords()
        var logger = Logger(label: "digest") { _ in RecordingLogHandler(records) }
        logger.logLevel = .trace
        let transport = ScriptedTransport([digest(nonce: "n1"), .status(200)])
        let auth = PasswordAuthenticator(username: "ann", password: "pw-S3CRET")
        let exec = RequestExecutor(transport: transport, authenticator: auth, retry: fastRetry, logger: logger)
        #expect(try await exec.execute(TransportRequest(method: .GET, url: base)).status == 200)
        let fields = try digestFields(transport.requests[1])
        let response = try #require(fields["response"])
        let ha1 = DigestAuthAlgorithm.md5.hex("ann:dav zone:pw-S3CRET")
        let logged = records.all.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(logged.contains("401"), "the exchanges were logged: \(logged)")
        for secret in ["pw-S3CRET", Data("ann:pw-S3CRET".utf8).base64EncodedString(), ha1, response] {
            #expect(!logged.contains(secret), "\(logged)")
        }
    }

    @Test("no secret in the description, the mirror or an error")
    func noSecrets() async throws {
        let auth = PasswordAuthenticator(username: "ann", password: "hunter2-S3CRET")
        var dumped = ""
        dump(auth, to: &dumped)
        for text in [auth.description, dumped, String(describing: auth), String(reflecting: auth)] {
            #expect(!text.contains("hunter2"))
            #expect(!text.contains(Data("ann:hunter2-S3CRET".utf8).base64EncodedString()))
        }
    }
}
