import Foundation
import HTTPProviderKit
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderTesting
import Testing

/// An OAuth2 login of a scripted token endpoint.
private func login(
    access: String = "at-1", refresh: String? = "rt-1", expiresAt: Date? = nil, secret: String? = nil
) -> Credentials {
    .oauth2(
        accessToken: access, refreshToken: refresh, expiresAt: expiresAt,
        tokenURL: URL(string: "https://auth.example/o/token/")!, clientID: "strata-\(UUID().uuidString)", clientSecret: secret)
}

private let resource = URL(string: "https://files.example/dav/")!

@Suite("OAuth2 credentials and authenticator")
struct OAuth2AuthenticatorTests {
    @Test("an OAuth2 login round-trips through its stored shape and never prints a secret")
    func storedShape() throws {
        let credentials = login(access: "AT-S3CRET", refresh: "RT-S3CRET", expiresAt: Date(timeIntervalSince1970: 1_700_000_000.7), secret: "CS-S3CRET")
        let data = try JSONEncoder().encode(credentials)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""expiresAt":"1700000000""#))
        let decoded = try JSONDecoder().decode(Credentials.self, from: data)
        #expect(decoded == credentials)
        #expect(decoded.expiresAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(decoded.tokenURL?.absoluteString == "https://auth.example/o/token/")
        for shown in [credentials.description, String(describing: credentials), "\(Mirror(reflecting: credentials).children.map(\.value))"] {
            for secret in ["AT-S3CRET", "RT-S3CRET", "CS-S3CRET"] { #expect(!shown.contains(secret)) }
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Credentials.self, from: Data(#"{"oauth2":{"accessToken":"a"}}"#.utf8))
        }
        #expect(credentials.httpAuthenticator() is OAuth2Authenticator)
    }

    @Test("a token about to expire is renewed before the request; the rotated login is handed to onRenew")
    func renewedBeforeExpiry() async throws {
        let transport = RecordingTransport { request in
            if request.url.path.hasPrefix("/o/token") {
                return (200, [("Content-Type", "application/json")], #"{"access_token":"at-2","refresh_token":"rt-2","expires_in":3600,"token_type":"Bearer"}"#)
            }
            return (200, [], "")
        }
        let saved = NIOLockedValueBox<[Credentials]>([])
        let auth = OAuth2Authenticator(
            credentials: login(expiresAt: Date().addingTimeInterval(30)), transport: transport) { renewed in
            saved.withLockedValue { $0.append(renewed) }
        }
        let executor = RequestExecutor(transport: transport, authenticator: auth, retry: .none)
        let response = try await executor.execute(TransportRequest(method: .GET, url: resource))
        #expect(response.status == 200)
        let sent = transport.requests
        #expect(sent.map(\.url.path) == ["/o/token", "/dav"])
        #expect(sent.last?.headers.first(name: "Authorization") == "Bearer at-2")
        #expect(saved.withLockedValue { $0.map(\.refreshToken) } == ["rt-2"])
        // A public client names itself in the form; no Basic header.
        #expect(sent.first?.headers.first(name: "Authorization") == nil)
    }

    @Test("a confidential client authenticates with HTTP Basic, then the form when Basic is refused")
    func clientAuthentication() async throws {
        let transport = RecordingTransport { request in
            if request.headers.first(name: "Authorization")?.hasPrefix("Basic ") == true {
                return (401, [("Content-Type", "application/json")], #"{"error":"invalid_client"}"#)
            }
            return (200, [("Content-Type", "application/json")], #"{"access_token":"at-2","token_type":"Bearer"}"#)
        }
        let credentials = login(expiresAt: Date.distantPast, secret: "s e/cret")
        let auth = OAuth2Authenticator(credentials: credentials, transport: transport)
        var request = TransportRequest(method: .GET, url: resource)
        try await auth.authorize(&request)
        #expect(request.headers.first(name: "Authorization") == "Bearer at-2")
        let tries = transport.requests
        #expect(tries.count == 2)
        let pair = Data("\(credentials.clientID ?? ""):s%20e%2Fcret".utf8).base64EncodedString()
        #expect(tries.first?.headers.first(name: "Authorization") == "Basic \(pair)")
        // The server sent no new refresh token: the old one is kept (RFC 6749 §6).
        #expect(await auth.credentials.refreshToken == "rt-1")
    }

    @Test("a refused renewal is unauthorized with the server's reason, remembered, and never loops")
    func refusedRenewal() async throws {
        let transport = RecordingTransport { request in
            if request.url.path.hasPrefix("/o/token") {
                return (400, [("Content-Type", "application/json")], #"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#)
            }
            return (401, [], "")
        }
        let auth = OAuth2Authenticator(credentials: login(access: "AT-S3CRET", refresh: "RT-S3CRET"), transport: transport)
        let executor = RequestExecutor(transport: transport, authenticator: auth, retry: .none)
        let error = await #expect(throws: ProviderError.self) { try await executor.execute(TransportRequest(method: .GET, url: resource)) }
        #expect(error?.code == .unauthorized)
        #expect(error?.message?.contains("invalid_grant: Refresh token revoked") == true)
        #expect(!String(describing: error).contains("S3CRET"))
        let again = await #expect(throws: ProviderError.self) { try await executor.execute(TransportRequest(method: .GET, url: resource)) }
        #expect(again?.code == .unauthorized)
        #expect(transport.requests.filter { $0.url.path.hasPrefix("/o/token") }.count == 1)
        #expect(transport.requests.count == 3)
    }

    @Test("the first 401 renews and replays once; a second 401 stands")
    func renewedOn401() async throws {
        let transport = RecordingTransport { request in
            if request.url.path.hasPrefix("/o/token") {
                return (200, [("Content-Type", "application/json")], #"{"access_token":"at-2","refresh_token":"rt-2"}"#)
            }
            return request.headers.first(name: "Authorization") == "Bearer at-2" ? (200, [], "") : (401, [], "")
        }
        let auth = OAuth2Authenticator(credentials: login(), transport: transport)
        let executor = RequestExecutor(transport: transport, authenticator: auth, retry: .none)
        let response = try await executor.execute(TransportRequest(method: .GET, url: resource))
        #expect(response.status == 200)
        #expect(transport.requests.map(\.url.path) == ["/dav", "/o/token", "/dav"])
    }

    @Test("authenticators made from the same login share one renewal, so a rotated refresh token is used once")
    func sharedSession() async throws {
        let transport = RecordingTransport { request in
            if request.url.path.hasPrefix("/o/token") {
                return (200, [("Content-Type", "application/json")], #"{"access_token":"at-2","refresh_token":"rt-2","expires_in":3600}"#)
            }
            return (200, [], "")
        }
        let credentials = login(expiresAt: Date.distantPast)
        let first = OAuth2Authenticator(credentials: credentials, transport: transport)
        let second = OAuth2Authenticator(credentials: credentials, transport: transport)
        var one = TransportRequest(method: .GET, url: resource)
        var two = TransportRequest(method: .GET, url: resource)
        try await first.authorize(&one)
        try await second.authorize(&two)
        #expect(two.headers.first(name: "Authorization") == "Bearer at-2")
        #expect(transport.requests.count == 1)
    }
}
