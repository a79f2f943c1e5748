import Foundation
import Hummingbird

extension NuxeoRouter {
    /// `POST /api/v1/automation/{op}` (and `/site/automation/{op}`, `@op/{op}`).
    func automation(_ req: ServerRequest, operation: String, inputOverride: String?) async throws -> Response {
        guard req.method == "POST" else { throw NuxeoError(status: 405, message: "Method Not Allowed") }
        let body = try await req.jsonBody()
        let params = body["params"] ?? .object([])
        let input = try inputOverride ?? resolveInput(body["input"])
        let result = try run(operation, input: input, params: params, req: req)
        if req.header("X-NXVoidOperation")?.lowercased() == "true" { return Reply.empty(204) }
        return result
    }

    /// `doc:<ref>`, a bare uid or a path → uid; absent → `nil` (void input).
    private func resolveInput(_ input: NXJSON?) throws -> String? {
        guard let raw = input?.stringValue, !raw.isEmpty else { return nil }
        if raw.hasPrefix("docs:") { throw NuxeoError.badRequest("docs: input is not supported by this server") }
        guard let doc = core.withState({ $0.repository.resolve(reference: raw) }) else {
            throw NuxeoError.notFound(raw.hasPrefix("doc:") ? String(raw.dropFirst(4)) : raw)
        }
        return doc.uid
    }

    private func requireInput(_ input: String?, _ operation: String) throws -> String {
        guard let input else { throw NuxeoError.badRequest("Operation \(operation) needs a document input") }
        return input
    }

    private func run(_ operation: String, input: String?, params: NXJSON, req: ServerRequest) throws -> Response {
        let user = req.user
        switch operation {
        case "Document.Fetch":
            let ref = params["value"]?.stringValue ?? ""
            guard let doc = core.withState({ $0.repository.resolve(reference: ref) }) else { throw NuxeoError.notFound(ref) }
            return try documentReply(req, uid: doc.uid)
        case "Document.Move":
            let uid = try requireInput(input, operation)
            try core.withState { state in
                let target = try self.target(params, in: state.repository)
                try state.repository.move(uid, to: target, name: params["name"]?.stringValue, user: user)
            }
            return try documentReply(req, uid: uid)
        case "Document.Copy":
            let uid = try requireInput(input, operation)
            let copy: String = try core.withState { state in
                let target = try self.target(params, in: state.repository)
                return try state.repository.copy(uid, to: target, name: params["name"]?.stringValue, user: user)
            }
            return try documentReply(req, uid: copy)
        case "Document.Trash", "Document.Untrash":
            let uid = try requireInput(input, operation)
            core.withState { state in
                if operation == "Document.Trash" {
                    state.repository.trash(uid, user: user)
                } else {
                    state.repository.untrash(uid, user: user)
                }
            }
            return try documentReply(req, uid: uid)
        case "Document.Delete":
            let uid = try requireInput(input, operation)
            core.withState { $0.repository.delete(uid, user: user) }
            return Reply.empty(204)
        case "Document.AddPermission", "Document.AddACL":
            let uid = try requireInput(input, operation)
            try addPermission(uid: uid, params: params, user: user)
            return try documentReply(req, uid: uid)
        case "Document.RemovePermission", "Document.RemoveACL":
            let uid = try requireInput(input, operation)
            try removePermission(uid: uid, params: params, user: user)
            return try documentReply(req, uid: uid)
        case "Repository.Query", "Document.Query":
            let (size, index) = paging(req, parameters: params)
            let queryParams = params["queryParams"].map { $0.arrayValue?.compactMap(\.stringValue) ?? ($0.stringValue.map { [$0] } ?? []) } ?? []
            return try queryReply(req, nxql: params["query"]?.stringValue ?? "SELECT * FROM Document", queryParams: queryParams,
                                  pageSize: size, pageIndex: index,
                                  sortBy: params["sortBy"]?.stringValue, sortOrder: params["sortOrder"]?.stringValue)
        default:
            if let reply = try drive(operation, input: input, params: params, req: req) { return reply }
            throw NuxeoError.notFound("No operation found with id \(operation)")
        }
    }

    /// The `target` parameter (path or uid) of Move/Copy.
    private func target(_ params: NXJSON, in repository: Repository) throws -> String {
        let ref = params["target"]?.stringValue ?? ""
        guard let doc = repository.resolve(reference: ref) else { throw NuxeoError.notFound(ref) }
        return doc.uid
    }
}
