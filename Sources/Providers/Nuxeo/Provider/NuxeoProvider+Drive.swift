import Foundation
import ProviderAPI
import HTTPProviderKit

/// Which change feed a provider settled on, decided at the first `changes(since: nil)`.
actor NuxeoFeedChoice {
    private(set) var usesDrive: Bool?

    func set(_ value: Bool) { usesDrive = value }
}

extension NuxeoProvider {
    /// Whether the change feed comes from Nuxeo Drive, deciding it once for `auto`.
    func usesDriveFeed() async throws -> Bool {
        if let decided = await feedChoice.usesDrive { return decided }
        let decision: Bool
        switch settings.changeFeed {
        case .query: decision = false
        case .drive:
            try await registerRootForDrive()
            decision = true
        case .auto:
            do {
                let summary = try await driveSummary(lowerBound: nil, roots: nil)
                let root = try await resolver.root()
                decision = summary.synchronizationRoots.contains { $0.uid == root }
            } catch let error as ProviderError where [.notFound, .invalidArgument, .server].contains(error.code) {
                decision = false  // no Drive add-on
            }
        }
        await feedChoice.set(decision)
        return decision
    }

    /// Registers the provider root as one of the user's Drive synchronization roots.
    func registerRootForDrive() async throws {
        let root = try await resolver.root()
        _ = try await client.automation(NuxeoAutomationRequest(
            "NuxeoDrive.SetSynchronization", input: .document(root), params: ["enable": true],
            headers: ["X-NXVoidOperation": "true"]))
    }

    /// One `NuxeoDrive.GetChangeSummary` call.
    func driveSummary(lowerBound: Int64?, roots: String?) async throws -> NuxeoDriveChangeSummary {
        var params: [String: JSONValue] = [:]
        if let lowerBound { params["lowerBound"] = .integer(lowerBound) }
        if let roots { params["lastSyncActiveRootDefinitions"] = .string(roots) }
        let result = try await client.automation(NuxeoAutomationRequest("NuxeoDrive.GetChangeSummary", params: params))
        switch result {
        case .json(let json): return try NuxeoDriveChangeSummary(json: json)
        case .blob(let data, _): return try NuxeoDriveChangeSummary.decode(data)
        default: throw ProviderError(.invalidResponse, "NuxeoDrive.GetChangeSummary answered \(result)")
        }
    }

    /// Changes from Nuxeo Drive's change summary (token `drive|upperBound|root definitions`).
    ///
    /// Every change of a document below the root is fetched with its breadcrumb to name its path;
    /// a deletion is named by the path this provider last saw for the document, and left out when
    /// it never saw it. `hasTooManyChanges` asks the caller for a full rescan (``ChangeBatch/resetRequired``).
    func driveChanges(since token: ChangeToken?) async throws -> ChangeBatch {
        guard let token else {
            let summary = try await driveSummary(lowerBound: nil, roots: nil)
            return ChangeBatch(changes: [], next: Self.driveToken(summary))
        }
        let parts = token.rawValue.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "drive", let lowerBound = Int64(parts[1]) else {
            throw ProviderError(.invalidArgument, "\(token) is not a Nuxeo Drive change token")
        }
        let summary = try await driveSummary(lowerBound: lowerBound, roots: String(parts[2]))
        let next = Self.driveToken(summary, fallback: lowerBound)
        if summary.hasTooManyChanges { return ChangeBatch(changes: [], next: next, resetRequired: true) }
        let root = try await resolver.root()
        var changes: [Change] = []
        var seen = Set<String>()
        for change in summary.changesNewestFirst {
            guard let uid = change.docUuid ?? change.fileSystemItem?.documentUid, seen.insert(uid).inserted else { continue }
            if change.isRemoval {
                if let path = await resolver.cachedPath(of: uid) {
                    await resolver.forget(path)
                    changes.append(Change(kind: .deleted, path: path))
                }
                continue
            }
            let document: NuxeoDocument
            do {
                document = try await client.document(uid: uid, enrichers: ["breadcrumb"])
            } catch let error as ProviderError where error.code == .notFound {
                continue  // gone since the event
            }
            guard let path = try await path(of: document, root: root) else { continue }
            let kind: Change.Kind
            switch change.eventId {
            case "documentCreated", "documentCreatedByCopy": kind = .created
            case "documentMoved", "moved": kind = .moved
            default: kind = .modified
            }
            changes.append(Change(kind: kind, path: path, item: mapper.item(from: document, at: path)))
        }
        return ChangeBatch(changes: changes.reversed(), next: next)
    }

    static func driveToken(_ summary: NuxeoDriveChangeSummary, fallback: Int64 = 0) -> ChangeToken {
        ChangeToken("drive|\(summary.upperBound ?? fallback)|\(summary.activeSynchronizationRootDefinitions ?? "")")
    }
}
