import CopypartyAdapter
import Foundation
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import SharedCacheConformance
import Testing

/// The copyparty adapter against the whole conformance suite, on a live copyparty.
///
/// The server comes from the environment `scripts/with-servers` exports (Strata's CI runs this
/// test through `scripts/examples`): `STRATA_COPYPARTY_URL`, `STRATA_DAV_USER`,
/// `STRATA_DAV_PASS`. Without a server the test is skipped, except when `STRATA_LIVE_REQUIRED=1`
/// says one must be there (CI): then it fails.
@Suite("the copyparty adapter against the Strata conformance suite")
struct CopypartyConformanceTests {
    static let environment = ProcessInfo.processInfo.environment
    static let serverGiven = environment["STRATA_COPYPARTY_URL"] != nil || environment["STRATA_LIVE_REQUIRED"] == "1"

    @Test(
        "every case passes on a live copyparty; a skipped case says why",
        .enabled(if: serverGiven, "no copyparty: run under scripts/with-servers, or set STRATA_COPYPARTY_URL"))
    func conformance() async throws {
        let url = try #require(Self.environment["STRATA_COPYPARTY_URL"].flatMap(URL.init(string:)), "STRATA_COPYPARTY_URL is not set")
        let credentials = Credentials.basic(
            username: Self.environment["STRATA_DAV_USER"] ?? "", password: Self.environment["STRATA_DAV_PASS"] ?? "")
        // The standard cases, plus the shared offline cache and the sync journal in front of the
        // adapter; every request goes through the suite's transport, which counts requests and
        // injects the faults of the fault cases.
        let cases = ConformanceCatalog.standard + SharedCacheConformance.offline + SharedCacheConformance.journal
        let suite = ConformanceSuite(subject: "copyparty \(url)", cases: cases) { environment in
            try CopypartyProvider(configuration: ProviderConfiguration(url: url, credentials: credentials, transport: environment.transport))
        }
        let report = await runConformance(suite)
        // An HTTP adapter may skip a case only for a capability it does not declare.
        report.recordUnexcusedSkips()
    }
}
