import Foundation
import Hummingbird

extension NuxeoRouter {
    /// The Nuxeo Drive operations (spec §9.1); `nil` for any other operation.
    func drive(_ operation: String, input: String?, params: NXJSON, req: ServerRequest) throws -> Response? {
        switch operation {
        case "NuxeoDrive.SetSynchronization":
            try setSynchronization(input: input, params: params, user: req.user)
            return Reply.empty(204)
        case "NuxeoDrive.GetChangeSummary":
            let lowerBound = params["lowerBound"].flatMap { $0.isNull ? nil : $0.intValue }
            let summary = core.withState { state in
                ChangeSummaryBuilder(repository: state.repository, registry: state.syncRoots, user: req.user,
                                     limit: core.configuration.driveChangeLimit)
                    .summary(lowerBound: lowerBound)
            }
            return Reply.json(summary)
        default:
            return nil
        }
    }

    /// Registers (`enable: true`, logs `rootRegistered`) or unregisters (logs
    /// `rootUnregistered`) the folderish input as a synchronization root of `user`.
    private func setSynchronization(input: String?, params: NXJSON, user: String) throws {
        guard let uid = input else {
            throw NuxeoError.badRequest("Operation NuxeoDrive.SetSynchronization needs a document input")
        }
        guard let enable = params["enable"]?.boolValue else {
            throw NuxeoError.badRequest("Failed to invoke operation: NuxeoDrive.SetSynchronization, Failed to inject parameter 'enable'")
        }
        try core.withState { state in
            guard let doc = state.repository.document(uid) else { throw NuxeoError.notFound(uid) }
            guard doc.isFolderish else {
                throw NuxeoError.badRequest("Document '\(doc.displayTitle)' (\(uid)) is not folderish")
            }
            if enable {
                if state.syncRoots.register(uid, for: user) {
                    state.repository.log(AuditEntry.Event.rootRegistered, uid, user: user)
                }
            } else if state.syncRoots.unregister(uid, for: user) {
                state.repository.log(AuditEntry.Event.rootUnregistered, uid, user: user)
            }
        }
    }
}
