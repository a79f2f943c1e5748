import Foundation
import HTTPProviderKit
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import StrataTestSupport
import Testing
import WebDAVProvider

/// WebDAV over TLS on the real nginx `scripts/test` starts (`STRATA_NGINX_TLS_URL`): its
/// certificate signed by a throw-away authority (`STRATA_TEST_CA`), HTTP/2 offered by ALPN, each
/// request's protocol in its access log (`STRATA_NGINX_TLS_LOG`).
@Suite("WebDAV over TLS and HTTP/2 on nginx", .liveServers)
struct WebDAVTLSLiveTests {
    /// A transport trusting the test authority; HTTP/2 as `http2` says.
    static func transport(_ server: LiveTLSServer, http2: Bool = true) throws -> AsyncHTTPClientTransport {
        var configuration = AsyncHTTPClientTransport.Configuration()
        try configuration.trustCertificates(inPEMFile: server.authority)
        configuration.allowsHTTP2 = http2
        return AsyncHTTPClientTransport(configuration: configuration)
    }

    static func configuration(_ server: LiveTLSServer, _ transport: any HTTPTransport, folder: String = "") -> ProviderConfiguration {
        let root = folder.isEmpty ? server.url : server.url.appendingPathComponent(folder, isDirectory: true)
        return ProviderConfiguration(url: root, credentials: server.credentials, transport: transport)
    }

    /// Writes, lists, reads and removes a folder of 12 files (4 at once) through `transport`.
    private func exercise(_ server: LiveTLSServer, _ transport: AsyncHTTPClientTransport, marker: String) async throws {
        let provider = try await WebDAVProvider.connect(Self.configuration(server, transport))
        _ = try await provider.createFolder(named: marker, in: .root)
        let folder = try ItemPath("/\(marker)")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    _ = try await provider.upload(data: Data("file \(index)".utf8), to: try folder.appending("f\(index).txt"))
                }
                if index >= 3 { try await group.next() }
            }
            try await group.waitForAll()
        }
        #expect(try await provider.listAll(folder).map(\.name).sorted() == (0..<12).map { "f\($0).txt" }.sorted())
        #expect(try await provider.data(at: try folder.appending("f7.txt")) == Data("file 7".utf8))
        try await provider.delete(folder)
    }

    @Test("the test authority trusted: every request goes over HTTP/2, and the files round-trip")
    func http2() async throws {
        let server = try LiveTLSServer.nginx()
        let transport = try Self.transport(server)
        let marker = "h2-\(UInt64.random(in: 0...UInt64.max))"
        try await exercise(server, transport, marker: marker)
        try await transport.shutdown()
        let protocols = try server.protocols(of: marker)
        #expect(protocols.count >= 15, "\(protocols.count) requests logged")
        #expect(Set(protocols) == ["HTTP/2.0"], "\(Set(protocols))")
    }

    @Test("allowsHTTP2 = false (--disable-http2): HTTP/1.1 over TLS")
    func http1Only() async throws {
        let server = try LiveTLSServer.nginx()
        let transport = try Self.transport(server, http2: false)
        let marker = "h1-\(UInt64.random(in: 0...UInt64.max))"
        try await exercise(server, transport, marker: marker)
        try await transport.shutdown()
        let protocols = try server.protocols(of: marker)
        #expect(protocols.count >= 15, "\(protocols.count) requests logged")
        #expect(Set(protocols) == ["HTTP/1.1"], "\(Set(protocols))")
    }

    @Test("a certificate no trusted authority signed: a clear error, and no request reaches the server")
    func untrusted() async throws {
        let server = try LiveTLSServer.nginx()
        let marker = "untrusted-\(UInt64.random(in: 0...UInt64.max))"
        let transport = AsyncHTTPClientTransport(configuration: .init())
        var configuration = Self.configuration(server, transport, folder: marker)
        configuration.retry = .none
        let error = await #expect(throws: ProviderError.self) { try await WebDAVProvider.connect(configuration) }
        try await transport.shutdown()
        let text = String(describing: error).lowercased()
        #expect(text.contains("certificate") || text.contains("tls"), "\(String(describing: error))")
        #expect(try server.protocols(of: marker).isEmpty, "a request went through")
    }

    @Test("a file that holds no PEM certificate is refused when it is added, not at the first request")
    func notPEM() throws {
        let server = try LiveTLSServer.nginx()
        var configuration = AsyncHTTPClientTransport.Configuration()
        let notCertificate = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-cert-\(UUID().uuidString).pem")
        try Data("hello".utf8).write(to: notCertificate)
        defer { try? FileManager.default.removeItem(at: notCertificate) }
        for file in [notCertificate, URL(fileURLWithPath: "/nonexistent/ca.pem")] {
            let error = #expect(throws: ProviderError.self) { try configuration.trustCertificates(inPEMFile: file) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message?.contains(file.path) == true, "\(String(describing: error))")
        }
        #expect(configuration.additionalTrustRootFiles.isEmpty)
        try configuration.trustCertificates(inPEMFile: server.authority)
        #expect(configuration.additionalTrustRootFiles == [server.authority])
    }

    @Test("the conformance suite over TLS and HTTP/2")
    func conformance() async throws {
        let server = try LiveTLSServer.nginx()
        let transport = try Self.transport(server)
        // The suite counts and injects faults on its own transport, over the one trusting the authority.
        let suite = ConformanceSuite(
            subject: "WebDAV on nginx over TLS and HTTP/2 \(server.url)", options: ConformanceOptions(baseTransport: transport)
        ) { environment in
            try await WebDAVProvider.connect(Self.configuration(server, environment.transport))
        }
        let report = await suite.run()
        try await transport.shutdown()
        print(report.text)
        report.recordIssues()
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 40)
    }
}
