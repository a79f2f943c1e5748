import Foundation
import Hummingbird

extension NuxeoRouter {
    /// `search/execute`, `search/lang/NXQL/execute`, `query`, `query/NXQL`: real counts.
    func search(_ req: ServerRequest, segments: [String]) throws -> Response {
        let path = segments.joined(separator: "/")
        if req.method == "GET", segments.count == 4, segments[0] == "search", segments[1] == "pp", segments[3] == "execute" {
            return try pageProvider(req, name: segments[2])
        }
        guard req.method == "GET",
              ["search/execute", "search/lang/NXQL/execute", "query", "query/NXQL"].contains(path)
        else { throw NuxeoError.notFound(req.rawPath) }
        let text = req.queryValue("query") ?? "SELECT * FROM Document"
        let (size, index) = paging(req)
        return try queryReply(req, nxql: text, queryParams: req.query.filter { $0.name == "queryParams" }.map(\.value),
                              pageSize: size, pageIndex: index,
                              sortBy: req.queryValue("sortBy"), sortOrder: req.queryValue("sortOrder"))
    }

    /// Page providers a stock server defines, as their NXQL pattern: `?` takes the ordered
    /// `queryParams`; `advanced_document_content` reads its parent from the named parameter
    /// `ecm_parentId` instead (from `pageprovider-contrib.xml` and the default search contributions).
    static let pageProviders: [String: String] = [
        "CURRENT_DOC_CHILDREN": "SELECT * FROM Document WHERE ecm:parentId = ? AND ecm:mixinType <> 'HiddenInNavigation' AND ecm:isVersion = 0 AND ecm:isTrashed = 0",
        "tree_children": "SELECT * FROM Document WHERE ecm:parentId = ? AND ecm:mixinType = 'Folderish' AND ecm:mixinType <> 'HiddenInNavigation' AND ecm:isVersion = 0 AND ecm:isTrashed = 0",
        "advanced_document_content": "SELECT * FROM Document WHERE ecm:parentId = ? AND ecm:mixinType <> 'HiddenInNavigation' AND ecm:isVersion = 0 AND ecm:isTrashed = 0",
    ]

    /// `search/pp/{name}/execute`: a known page provider, else 404.
    func pageProvider(_ req: ServerRequest, name: String) throws -> Response {
        guard let pattern = Self.pageProviders[name] else { throw NuxeoError.notFound("Unknown page provider \(name)") }
        var parameters = req.query.filter { $0.name == "queryParams" }.map(\.value)
        if name == "advanced_document_content", let parent = req.queryValue("ecm_parentId") { parameters = [parent] }
        guard parameters.count == pattern.filter({ $0 == "?" }).count else {
            throw NuxeoError.badRequest("page provider \(name) expects \(pattern.filter { $0 == "?" }.count) queryParams")
        }
        let (size, index) = paging(req)
        return try queryReply(req, nxql: pattern, queryParams: parameters, pageSize: size, pageIndex: index,
                              sortBy: req.queryValue("sortBy") ?? "dc:title", sortOrder: req.queryValue("sortOrder") ?? "asc")
    }

    /// Runs NXQL and answers a `documents` page (400 on a syntax error).
    func queryReply(
        _ req: ServerRequest, nxql: String, queryParams: [String], pageSize: Int, pageIndex: Int,
        sortBy: String?, sortOrder: String?
    ) throws -> Response {
        let query: NXQLQuery
        do {
            query = try NXQLParser.parse(Self.substitute(nxql, queryParams))
        } catch {
            throw NuxeoError.badRequest("Failed to execute query: \(nxql), \(error)")
        }
        let repository = core.withState { $0.repository }
        let sort = SortSpec.parse(sortBy: sortBy, sortOrder: sortOrder)
        let docs = NXQLEvaluator(repository: repository).run(query, order: sort.isEmpty ? nil : sort)
        let list = DocumentListWriter(writer: writer(req, repository: repository))
        return Reply.json(list.page(docs, pageSize: pageSize, pageIndex: pageIndex,
                                    maxPageSize: core.configuration.maxPageSize, unknownSize: false))
    }

    /// Replaces each `?` with the next parameter, quoted and escaped like `NXQL.escapeString`.
    static func substitute(_ query: String, _ parameters: [String]) -> String {
        guard !parameters.isEmpty else { return query }
        var out = ""
        var remaining = parameters[...]
        for c in query {
            if c == "?", let value = remaining.popFirst() {
                let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "'", with: "\\'").replacingOccurrences(of: "\n", with: "\\n")
                out += "'\(escaped)'"
            } else {
                out.append(c)
            }
        }
        return out
    }
}
