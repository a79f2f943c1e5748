import Foundation
import Hummingbird

extension NuxeoRouter {
    /// A document address: the document (if found), the text used in a 404, the adapter segments.
    struct Target {
        var document: StoredDocument?
        var reference: String
        var adapter: [String]
    }

    /// Parses `path/...` or `id/{uid}/...` (raw segments, `@` starts the adapter).
    func target(_ segments: [String], in repository: Repository) -> Target {
        let rest = segments.dropFirst().map(FormDecoding.decodeSegment)
        if segments.first == "id" {
            let uid = rest.first ?? ""
            return Target(document: repository.document(uid), reference: uid, adapter: Array(rest.dropFirst()))
        }
        let split = rest.firstIndex { $0.hasPrefix("@") } ?? rest.count
        let names = Array(rest[..<split]).filter { !$0.isEmpty }
        return Target(
            document: repository.resolve(segments: names),
            reference: "/" + names.joined(separator: "/"),
            adapter: Array(rest[split...])
        )
    }

    func writer(_ req: ServerRequest, repository: Repository) -> DocumentWriter {
        DocumentWriter(repository: repository, options: RenderOptions(req), baseURL: core.baseURL(), user: req.user)
    }

    /// Renders one document from the current state.
    func documentReply(_ req: ServerRequest, uid: String, status: Int = 200) throws -> Response {
        let repository = core.withState { $0.repository }
        guard let doc = repository.document(uid) else { throw NuxeoError.notFound(uid) }
        return Reply.json(writer(req, repository: repository).document(doc), status: status)
    }

    func documents(_ req: ServerRequest, segments: [String]) async throws -> Response {
        let repository = core.withState { $0.repository }
        let target = target(segments, in: repository)
        guard let doc = target.document else { throw NuxeoError.notFound(target.reference) }
        switch (target.adapter.first, req.method) {
        case (nil, "GET"): return Reply.json(writer(req, repository: repository).document(doc))
        case (nil, "POST"): return try await create(req, parent: doc.uid)
        case (nil, "PUT"): return try await update(req, uid: doc.uid)
        case (nil, "DELETE"):
            guard !doc.isRoot else { throw NuxeoError.badRequest("Cannot remove the root") }
            core.withState { $0.repository.delete(doc.uid, user: req.user) }
            return Reply.empty(204)
        case ("@children", "GET"): return children(req, of: doc.uid)
        case ("@blob", "GET"), ("@blob", "HEAD"):
            return try blob(req, uid: doc.uid, xpath: target.adapter.dropFirst().joined(separator: "/"))
        case ("@acl", "GET"): return acl(req, uid: doc.uid)
        case ("@op", "POST"):
            return try await automation(req, operation: target.adapter.dropFirst().joined(separator: "/"), inputOverride: doc.uid)
        default: throw NuxeoError.notFound(req.rawPath)
        }
    }

    /// `@children`: not trashed, sorted by title ascending (or sortBy), `-2` counts when over a page.
    func children(_ req: ServerRequest, of uid: String) -> Response {
        let repository = core.withState { $0.repository }
        var kids = repository.children(of: uid).filter { !$0.isTrashed }
        let order = SortSpec.parse(sortBy: req.queryValue("sortBy"), sortOrder: req.queryValue("sortOrder"))
        kids = order.isEmpty ? kids.sorted(by: SortSpec.byTitle) : SortSpec.sort(kids, by: order, repository: repository)
        let (size, index) = paging(req)
        let list = DocumentListWriter(writer: writer(req, repository: repository))
        return Reply.json(
            list.page(
                kids, pageSize: size, pageIndex: index, maxPageSize: core.configuration.maxPageSize, unknownSize: true,
                contradiction: core.faults.listingContradiction))
    }

    /// `pageSize` (default, clamped) and `currentPageIndex` from the query.
    func paging(_ req: ServerRequest, parameters: NXJSON? = nil) -> (size: Int, index: Int) {
        let sizeText = parameters?["pageSize"]?.stringValue ?? req.queryValue("pageSize")
        let indexText = parameters?["currentPageIndex"]?.stringValue ?? req.queryValue("currentPageIndex")
        var size = sizeText.flatMap { Int($0) } ?? core.configuration.pageSizeDefault
        if size < 0 { size = core.configuration.pageSizeDefault }
        size = min(size, core.configuration.maxPageSize)
        return (size, max(indexText.flatMap { Int($0) } ?? 0, 0))
    }

    /// `GET @acl` → `{"entity-type":"acls","acl":[{"name","ace":[…]}]}`.
    func acl(_ req: ServerRequest, uid: String) -> Response {
        let repository = core.withState { $0.repository }
        guard let doc = repository.document(uid) else { return Reply.exception(404, uid) }
        let enriched = writer(req, repository: repository).acls(of: doc)
        let acls = (enriched.arrayValue ?? []).map { acl -> NXJSON in
            .object([("name", acl["name"] ?? .null), ("ace", acl["aces"] ?? .array([]))])
        }
        return Reply.json(.object([("entity-type", .string("acls")), ("acl", .array(acls))]))
    }
}
