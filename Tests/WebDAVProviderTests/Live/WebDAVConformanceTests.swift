import Foundation
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import SharedCacheConformance
import StrataTestSupport
import Testing
import WebDAVProvider

/// The whole conformance suite against every real server `scripts/test` starts (Apache mod_dav,
/// sabre/dav, lighttpd, nginx dav-ext, rclone serve twice, copyparty, chezdav).
@Suite("WebDAV conformance on real servers", .liveServers)
struct WebDAVConformanceTests {
    @Test("conformance suite", arguments: LiveServers.names)
    func conformance(serverName: String) async throws {
        let server = try LiveServers.server(serverName)
        let suite = ConformanceSuite(subject: "WebDAV on \(serverName) \(server.url)", cases: ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal) { environment in
            let transport = environment.transport
            return try await WebDAVProvider.connect(LiveServers.configuration(server, transport: transport))
        }
        let report = await suite.run()
        print(report.text)
        report.recordIssues()
        // Only capabilities may excuse a case: every skip names one.
        report.recordUnexcusedSkips()
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 40)
    }
}
