import Foundation
import Testing
@testable import NextcloudTestServer

/// Every file in `Tests/Fixtures/nextcloud` is either replayed, used as a request body, or listed
/// here with the reason the server does not reproduce it. A new recording fails this test until
/// it is placed.
@Suite("Fixture inventory")
struct FixtureInventoryTests {
    /// Request bodies the recordings' clients sent; the replay cases send them.
    static let requestBodies: Set<String> = [
        "req-propfind-body-nncclient-details.xml",
        "req-propfind-body-nncclient-folder-contents.xml",
        "req-report-filter-files-systemtags-nncclient.xml",
        "req-search-basicsearch-nc-docs.xml",
    ]

    /// Recordings the server does not reproduce, with the reason.
    static let excluded: [String: String] = [
        "req-report-search-files-oc10-docs.xml": "the request of report-search-files-oc10-docs.xml (excluded below)",
        "report-search-files-oc10-docs.xml":
            "the documented answer holds properties its documented request does not ask for (oc:id, oc:downloadURL, "
            + "oc:owner-id) and lacks ones it does ask for, so it cannot be produced from that request; the REPORT itself is served",
        "ocs-v1-cloud-users-get-nc18.json": "provisioning API (cloud/users), another app",
        "ocs-v1-error-102-http200-user-exists-nc18.json": "provisioning API (cloud/users), another app",
        "ocs-v1-error-404-http200-user-not-found-nc18.json": "provisioning API (cloud/users), another app",
        "ocs-v1-remote-shares-accepted-oc10.http": "federated (remote) shares are not implemented",
        "ocs-v1-remote-shares-pending-oc10.http": "federated (remote) shares are not implemented",
        "ocs-v1-share-get-oc-docs.xml": "share type 6 (federated) is not implemented",
        "ocs-capabilities-oc10.0.3-docs.json":
            "a documentation example edited by its copier (statuscode 200 on v1, booleans as strings); the live "
            + "ownCloud 10.1 capabilities recording is compared instead",
    ]

    @Test("every fixture is replayed, used as a request body, or excluded with a reason")
    func inventory() throws {
        let all = try Fixtures.allNames()
        let replayed = Set(ReplayTests.names)
        #expect(replayed.count == ReplayTests.names.count, "a fixture is replayed twice")
        let placed = replayed.union(Self.requestBodies).union(Self.excluded.keys)
        let unplaced = all.subtracting(placed)
        #expect(unplaced.isEmpty, "fixtures neither compared nor excluded: \(unplaced.sorted())")
        let missing = placed.subtracting(all)
        #expect(missing.isEmpty, "listed but not in the fixture folder: \(missing.sorted())")
        #expect(replayed.isDisjoint(with: Self.excluded.keys), "a fixture is both replayed and excluded")
        #expect(Self.excluded.values.allSatisfy { $0.count > 20 })
        #expect(all.count >= 70, "the fixture folder was not found or is incomplete: \(all.count) files")
    }

    @Test("the comparison notices a changed value, key order or element")
    func comparisonCanFail() throws {
        let recorded = try Fixtures.data("ocs-v2-share-delete-nc18.json")
        let same = try Shape.json(recorded)
        #expect(try Shape.json(Data(#"{"ocs":{"meta":{"status":"ok","statuscode":200,"message":"OK"},"data":[]}}"#.utf8)) == same)
        #expect(try Shape.json(Data(#"{"ocs":{"meta":{"statuscode":200,"status":"ok","message":"OK"},"data":[]}}"#.utf8)) != same)
        #expect(try Shape.json(Data(#"{"ocs":{"meta":{"status":"ok","statuscode":"200","message":"OK"},"data":[]}}"#.utf8)) != same)
        let error = try Shape.xml(try Fixtures.data("dav-error-405-mkcol-exists-nc18.xml"))
        let other = SabreError.methodNotAllowed("The resource you tried to create already exist").document
        #expect(try Shape.xml(Data(other.utf8)) != error)
        let exact = SabreError.methodNotAllowed("The resource you tried to create already exists").document
        #expect(try Shape.xml(Data(exact.utf8)) == error)
    }
}
