import Foundation
import ProviderAPI
import ProviderConformance
import ProviderConformanceTesting
import Testing

@Suite("The suite fails a provider that breaks the contract")
struct DefectTests {
    private func run(
        _ defects: InMemoryProvider.Defects, _ cases: Set<String>,
        capabilities: Capabilities = InMemoryProvider.fullCapabilities
    ) async -> ConformanceReport {
        await ReferenceSuite.make(capabilities: capabilities, defects: defects, filter: cases, pagingCount: 120).suite.run()
    }

    @Test("a listing that loses an entry between pages fails listing.paging")
    func droppedPagingEntry() async throws {
        let report = await run(.dropsEntryWhenPaging, ["listing.paging"])
        let result = try #require(report.result(named: "listing.paging"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("never came") == true, "\(result)")
        #expect(report.summaryLine == "conformance: 0 passed, 1 failed, 0 skipped")
    }

    @Test("a listing whose count contradicts its entries is refused: listing.complete fails")
    func overstatedCount() async throws {
        let report = await run(.overstatesCount, ["listing.complete"])
        let result = try #require(report.result(named: "listing.complete"))
        #expect(result.failed)
        // The shared page loop refuses the listing before the case compares anything itself.
        #expect(result.outcome.detail?.contains("declared 10 entries") == true, "\(result)")
        let honest = await run([], ["listing.complete"])
        #expect(honest.result(named: "listing.complete")?.failed == false, "\(honest)")
    }

    @Test("a download that keeps a body cut short fails integrity.truncatedWithoutLength")
    func acceptsShortDownload() async throws {
        let report = await run(.acceptsShortDownloads, ["integrity.truncatedWithoutLength"])
        let result = try #require(report.result(named: "integrity.truncatedWithoutLength"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("accepted with 100003 of 262144 bytes") == true, "\(result)")
    }

    @Test("an adapter that empties every file uploaded with a modified time fails files.datedUploadsKeepContent, and only that case")
    func emptiesDatedUploads() async throws {
        let cases: Set<String> = ["files", "metadata.setModifiedTime"]
        let report = await ReferenceSuite.make(
            capabilities: InMemoryProvider.fullCapabilities, defects: .emptiesDatedUploads, filter: cases, pagingCount: 120
        ) { $0.mediumFileSize = 64 << 10 }.suite.run()
        let result = try #require(report.result(named: "files.datedUploadsKeepContent"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("with a modified time") == true, "\(result)")
        for other in ["files.empty", "files.oneByte", "files.medium", "metadata.setModifiedTime"] {
            #expect(report.result(named: other)?.passed == true, "\(other) caught it: the new case is what fails the defect")
        }
        let sound = await ReferenceSuite.make(
            capabilities: InMemoryProvider.fullCapabilities, defects: [], filter: ["files.datedUploadsKeepContent"], pagingCount: 120
        ) { $0.mediumFileSize = 64 << 10 }.suite.run()
        #expect(sound.result(named: "files.datedUploadsKeepContent")?.passed == true, "\(sound.text)")
    }

    @Test("a wrong size fails metadata.size")
    func wrongSize() async throws {
        let report = await run(.reportsWrongSize, ["metadata.size"])
        let result = try #require(report.result(named: "metadata.size"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("1235") == true, "\(result)")
    }

    @Test("a request before refusing an undeclared call fails unsupported.calls")
    func requestWhenUnsupported() async throws {
        let report = await run(.sendsRequestWhenUnsupported, ["unsupported.calls"], capabilities: InMemoryProvider.basicCapabilities)
        let result = try #require(report.result(named: "unsupported.calls"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("search sent 1 request(s)") == true, "\(result)")
    }

    @Test("an upload that ignores .fail fails conflicts.uploadFail")
    func ignoredFailPolicy() async throws {
        let report = await run(.ignoresFailPolicy, ["conflicts.uploadFail"])
        let result = try #require(report.result(named: "conflicts.uploadFail"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("should throw .alreadyExists, but succeeded") == true, "\(result)")
    }

    @Test("a create with .fail that checks, then writes, fails conflicts.exclusiveCreate on the race")
    func racyExclusiveCreate() async throws {
        let report = await run(.checksThenCreates, ["conflicts.uploadFail", "conflicts.exclusiveCreate"])
        #expect(report.result(named: "conflicts.uploadFail")?.passed == true, "\(report.text)")
        let result = try #require(report.result(named: "conflicts.exclusiveCreate"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("2 of 2 uploads racing to create race-1.bin with .fail succeeded") == true, "\(result)")
    }

    @Test("ids that are paths fail metadata.stableIDs at the rename")
    func pathIDs() async throws {
        let report = await run(.idsFollowPaths, ["metadata.stableIDs"])
        let result = try #require(report.result(named: "metadata.stableIDs"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("after it was renamed") == true, "\(result)")
    }

    @Test("read-only permissions on items that accept uploads fail metadata.permissions")
    func understatedPermissions() async throws {
        let report = await run(.understatesPermissions, ["metadata.permissions"])
        let result = try #require(report.result(named: "metadata.permissions"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("uploading into the case folder succeeded, but the permissions of") == true, "\(result)")
        #expect(result.outcome.detail?.contains("lack [.createChildren]") == true, "\(result)")
    }

    @Test("undeclared exclusive creates, stable ids and permissions are skipped naming the feature")
    func newCasesSkipped() async throws {
        let report = await run([], ["conflicts.exclusiveCreate", "metadata.stableIDs", "metadata.permissions"], capabilities: InMemoryProvider.basicCapabilities)
        #expect(report.result(named: "conflicts.exclusiveCreate")?.outcome == .skipped(.capability(.exclusiveCreate)))
        #expect(report.result(named: "metadata.stableIDs")?.outcome == .skipped(.capability(.stableIDs)))
        #expect(report.result(named: "metadata.permissions")?.outcome == .skipped(.capability(.permissions)))
    }

    @Test("recordIssues records an issue for each failed case")
    func recordsIssues() async throws {
        let report = await run(.reportsWrongSize, ["metadata.size", "files.oneByte"])
        #expect(report.counts.failed == 2)
        withKnownIssue("two failed cases") {
            report.recordIssues()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("conformance case") }
        }
    }

    @Test("a public link that opens only a page, not the file, fails shares.publicLink; the sound reference passes all three share cases")
    func pageOnlyLink() async throws {
        let report = await run(.linksToPageOnly, ["shares.publicLink"])
        let result = try #require(report.result(named: "shares.publicLink"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("without credentials answered HTTP 200") == true, "\(result)")
        let sound = await run([], ["shares"])
        #expect(sound.summaryLine == "conformance: 3 passed, 0 failed, 0 skipped", "\(sound.text)")
    }

    @Test("a link made without the password it was asked for fails shares.passwordLink")
    func openPasswordLink() async throws {
        let report = await run(.dropsLinkPassword, ["shares.passwordLink"])
        let result = try #require(report.result(named: "shares.passwordLink"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("without its password delivered the file") == true, "\(result)")
    }

    @Test("a server that keeps a link longer than the share reports fails shares.expiry")
    func hiddenExpiryRounding() async throws {
        let report = await run(.hidesRoundedExpiry, ["shares.expiry"])
        let result = try #require(report.result(named: "shares.expiry"))
        #expect(result.failed)
        #expect(result.outcome.detail?.contains("but shares(of:) lists the link expiring") == true, "\(result)")
    }
}
