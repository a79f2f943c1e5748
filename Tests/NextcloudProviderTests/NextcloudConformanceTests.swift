import Foundation
import ProviderAPI
import ProviderConformance
import SharedCacheConformance
import ProviderConformanceTesting
import Testing
import WebDAVProvider

/// The whole conformance suite against the loopback server, as Nextcloud and as ownCloud 10,
/// with digests, stable ids, shares and search declared and so exercised.
@Suite("ownCloud/Nextcloud dialect conformance on the loopback server")
struct NextcloudConformanceTests {
    @Test("conformance suite", arguments: [WebDAVDialect.Flavor.nextcloud, .owncloud])
    func conformance(flavor: WebDAVDialect.Flavor) async throws {
        let cloud = try await LoopbackNextcloud.start(flavor: flavor)
        let root = try await cloud.provider()
        #expect(root.capabilities.supports([.digests, .stableIDs, .shares, .search, .permissions, .setModifiedTime, .quota]))
        #expect(root.capabilities.shareKinds.contains(.publicLink))
        // Small chunks, so that the multi-megabyte cases go through chunking v2.
        let options = ["chunkSize": String(1 << 20), "chunkThreshold": String(2 << 20)]
        // One folder for the run: the suite makes its own folder per case below it, and some cases
        // make a second provider that must see the first one's files.
        let name = "conformance-\(UInt32.random(in: 0...UInt32.max))"
        _ = try await root.createFolder(named: name, in: .root)
        let suite = ConformanceSuite(subject: "\(flavor.rawValue) dialect on \(cloud.server.baseURL)", cases: ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal) { environment in
            let transport = environment.transport
            return try await cloud.provider(folder: name, options: options, transport: transport)
        }
        let report = await suite.run()
        await cloud.stop()
        print(report.text)
        report.recordIssues()
        report.recordUnexcusedSkips()
        #expect(report.counts.failed == 0)
        #expect(report.counts.passed > 60)
        for name in [
            "metadata.digests", "search.byName", "shares.publicLink", "shares.passwordLink", "shares.expiry", "quota.report",
            "metadata.setModifiedTime",
        ] {
            #expect(report.results.contains { $0.name == name && $0.passed }, "\(name) did not pass")
        }
    }
}
