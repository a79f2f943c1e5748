import Foundation
@testable import NuxeoTestServer

/// Nuxeo Drive operations through the wire protocol.
extension TestClient {
    /// `NuxeoDrive.SetSynchronization` on `input` (a uid or a path).
    @discardableResult
    func setSynchronization(
        _ input: String, enable: Bool, auth: TestAuth = .basic("Administrator", "Administrator")
    ) async throws -> TestResponse {
        let body = "{\"input\":\(NXJSON.string("doc:" + input).serialized),\"params\":{\"enable\":\(enable)}}"
        return try await send("POST", "/api/v1/automation/NuxeoDrive.SetSynchronization",
                              headers: [("Content-Type", "application/json")], body: Data(body.utf8), auth: auth)
    }

    /// The raw `NuxeoDrive.GetChangeSummary` response.
    func changeSummaryResponse(
        lowerBound: Int?, roots: String = "", auth: TestAuth = .basic("Administrator", "Administrator")
    ) async throws -> TestResponse {
        let bound = lowerBound.map { "\"lowerBound\":\($0)," } ?? ""
        let body = "{\"params\":{\(bound)\"lastSyncActiveRootDefinitions\":\(NXJSON.string(roots).serialized)}}"
        return try await send("POST", "/api/v1/automation/NuxeoDrive.GetChangeSummary",
                              headers: [("Content-Type", "application/json")], body: Data(body.utf8), auth: auth)
    }

    /// The change summary JSON (fails unless 200).
    func changeSummary(lowerBound: Int?, auth: TestAuth = .basic("Administrator", "Administrator")) async throws -> NXJSON {
        let response = try await changeSummaryResponse(lowerBound: lowerBound, auth: auth)
        guard response.status == 200 else { throw Failure(description: "GetChangeSummary: \(response.status) \(response.text)") }
        return try response.json()
    }

    /// The current `upperBound` (a summary without `lowerBound`).
    func upperBound() async throws -> Int {
        try await changeSummary(lowerBound: nil)["upperBound"]?.intValue ?? -1
    }
}

extension NXJSON {
    /// The `fileSystemChanges` of a summary.
    var changes: [NXJSON] { self["fileSystemChanges"]?.arrayValue ?? [] }

    /// The `eventId`s of a summary's changes, in order.
    var eventIDs: [String] { changes.compactMap { $0["eventId"]?.stringValue } }

    /// `uid` of a document entity.
    var uid: String { self["uid"]?.stringValue ?? "" }
}
