import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI
import Testing

@testable import StrataCLI

/// The client side of Login Flow v2 against scripted answers: what the loopback server cannot
/// produce (a poll sent elsewhere, failing polls, a broken answer, cancellation mid-poll).
@Suite("Login Flow v2 client")
struct NextcloudLoginFlowTests {
    /// Answers each request with `answer`, and tells `requests` about it.
    struct Scripted: HTTPTransport {
        let answer: @Sendable (TransportRequest) async throws -> (Int, String)
        var requests: AsyncStream<TransportRequest>.Continuation?

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            requests?.yield(request)
            let (status, body) = try await answer(request)
            return TransportResponse(status: status, url: request.url, body: .bytes(ByteBuffer(string: body)))
        }
    }

    static let root = URL(string: "https://cloud.example.com/nc/")!
    static let pollToken = "POLLTOKEN-0123456789"
    static let appPassword = "APPPASSWORD-abcdef-0123"

    static func started(endpoint: String = "https://cloud.example.com/nc/index.php/login/v2/poll") -> String {
        #"{"poll":{"token":"\#(pollToken)","endpoint":"\#(endpoint)"},"login":"https://cloud.example.com/nc/index.php/login/v2/flow/LOGIN"}"#
    }

    static func flow(_ answer: @escaping @Sendable (TransportRequest) async throws -> (Int, String)) -> NextcloudLoginFlow {
        var flow = NextcloudLoginFlow(serverRoot: root, transport: Scripted(answer: answer), userAgent: "strata/test (host)")
        flow.interval = .milliseconds(1)
        return flow
    }

    @Test("the server root: before remote.php, else the origin")
    func serverRoot() {
        #expect(NextcloudLoginFlow.serverRoot(of: URL(string: "https://h.example/cloud/remote.php/dav/files/ann/Docs")!)?.absoluteString
            == "https://h.example/cloud/")
        #expect(NextcloudLoginFlow.serverRoot(of: URL(string: "http://u:p@h.example:8080/Docs/a?x=1")!)?.absoluteString
            == "http://h.example:8080/")
    }

    @Test("a poll endpoint on another host, or in plain HTTP for an HTTPS server, is refused before the token is sent")
    func endpointElsewhere() async throws {
        for endpoint in ["https://evil.example/poll", "http://cloud.example.com/nc/index.php/login/v2/poll", "https://cloud.example.com:8443/poll"] {
            let flow = Self.flow { _ in (200, Self.started(endpoint: endpoint)) }
            do {
                _ = try await flow.start()
                Issue.record("accepted \(endpoint)")
            } catch let failure as ProviderError {
                #expect(failure.code == .invalidResponse)
                #expect(!failure.description.contains(Self.pollToken))
            }
        }
    }

    @Test("a server without Login Flow v2 is unsupported")
    func noFlow() async throws {
        let flow = Self.flow { _ in (404, "<html>Page not found</html>") }
        await #expect(throws: ProviderError.self) { try await flow.start() }
        do { _ = try await flow.start() } catch let failure as ProviderError { #expect(failure.code == .unsupported) }
    }

    @Test("polls with the token and User-Agent until granted; failing polls are tried again")
    func polls() async throws {
        let count = PollCounter()
        let flow = Self.flow { request in
            if request.url.path.hasSuffix("/login/v2") {
                #expect(request.headers.first(name: "User-Agent") == "strata/test (host)")
                return (200, Self.started())
            }
            #expect(request.url.absoluteString == "https://cloud.example.com/nc/index.php/login/v2/poll")
            switch await count.next() {
            case 1: return (503, "busy")
            case 2, 3: return (404, "[]")
            default: return (200, #"{"server":"https://cloud.example.com/nc","loginName":"ann","appPassword":"\#(Self.appPassword)"}"#)
            }
        }
        let credentials = try await flow.wait(for: try await flow.start())
        #expect(credentials == .appPassword(username: "ann", password: Self.appPassword))
        #expect(await count.value == 4)
    }

    @Test("a broken grant answer fails without quoting it")
    func brokenGrant() async throws {
        let flow = Self.flow { request in
            request.url.path.hasSuffix("/login/v2") ? (200, Self.started()) : (200, #"{"appPassword":"\#(Self.appPassword)"}"#)
        }
        do {
            _ = try await flow.wait(for: try await flow.start())
            Issue.record("accepted an answer without a login name")
        } catch let failure as ProviderError {
            #expect(failure.code == .invalidResponse)
            #expect(!failure.description.contains(Self.appPassword))
        }
    }

    @Test("the flow gives up after its lifetime with a clear error")
    func expiry() async throws {
        var flow = Self.flow { request in request.url.path.hasSuffix("/login/v2") ? (200, Self.started()) : (404, "[]") }
        flow.lifetime = .zero
        do {
            _ = try await flow.wait(for: try await flow.start())
            Issue.record("no expiry")
        } catch let failure as ProviderError {
            #expect(failure.code == .unauthorized)
            #expect(failure.description.contains("not granted"))
        }
    }

    @Test("cancelling while polling ends the wait with no credentials")
    func cancelled() async throws {
        let (requests, continuation) = AsyncStream.makeStream(of: TransportRequest.self)
        var flow = NextcloudLoginFlow(
            serverRoot: Self.root,
            transport: Scripted(answer: { request in request.url.path.hasSuffix("/login/v2") ? (200, Self.started()) : (404, "[]") }, requests: continuation),
            userAgent: "strata/test")
        flow.interval = .seconds(3600)
        let started = try await flow.start()
        let waiting = Task { try await flow.wait(for: started) }
        for await request in requests where request.url.path.hasSuffix("/poll") { break }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    #if os(Linux)
        @Test("the browser is xdg-open from PATH, only with DISPLAY or WAYLAND_DISPLAY; only http and https pages are opened")
        func opener() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let tool = folder.appendingPathComponent("xdg-open")
            try Data("#!/bin/sh\n".utf8).write(to: tool)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
            #expect(BrowserOpener.opener(["PATH": folder.path]) == nil)
            #expect(BrowserOpener.opener(["PATH": folder.path, "DISPLAY": ""]) == nil)
            #expect(BrowserOpener.opener(["PATH": folder.path, "DISPLAY": ":0"])?.path == tool.path)
            #expect(BrowserOpener.opener(["PATH": folder.path, "WAYLAND_DISPLAY": "wayland-0"])?.path == tool.path)
            #expect(BrowserOpener.opener(["PATH": "/nonexistent", "DISPLAY": ":0"]) == nil)
            #expect(!BrowserOpener.open(URL(fileURLWithPath: "/etc/passwd"), environment: ["PATH": folder.path, "DISPLAY": ":0"]))
        }
    #endif

    @Test("login TARGET: a URL is named after its host; the same server with or without a final / is the same remote; another is refused")
    func targets() throws {
        let registry = StrataCommandLine().registry()
        let fresh = try LoginTarget.resolve("nextclouds://Cloud.Example.com:8443", name: nil, registry: registry)
        #expect(fresh.name == "cloud.example.com-8443")
        #expect(fresh.isNew)
        #expect(fresh.wireURL.absoluteString == "https://Cloud.Example.com:8443")
        registry.addRemote(SavedRemote(name: "work", kind: "nextcloud", url: URL(string: "nextclouds://cloud.example.com/")!))
        let again = try LoginTarget.resolve("nextclouds://cloud.example.com", name: "work", registry: registry)
        #expect(!again.isNew)
        #expect(try LoginTarget.resolve("work:", name: nil, registry: registry).name == "work")
        #expect(throws: (any Error).self) { try LoginTarget.resolve("nextclouds://other.example.com", name: "work", registry: registry) }
        #expect(throws: (any Error).self) { try LoginTarget.resolve("nosuch", name: nil, registry: registry) }
        #expect(throws: (any Error).self) { try LoginTarget.resolve("nextclouds://ann:pw@cloud.example.com", name: "x2", registry: registry) }
    }
}

/// Counts polls.
private actor PollCounter {
    private(set) var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}
