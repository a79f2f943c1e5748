import Foundation
import Hummingbird

extension NuxeoRouter {
    /// `search/execute`, `search/lang/NXQL/execute`, `query`, `query/NXQL`: real counts.
    func search(_ req: ServerRequest, segments: [String]) throws -> Response {
        let path = segments.joined(separator: "/")
        guard req.method == "GET",
              ["search/execute", "search/lang/NXQL/execute", "query", "query/NXQL"].contains(path)
        else { throw NuxeoError.notFound(req.rawPath) }
        let text = req.queryValue("query") ?? "SELECT * FROM Document"
        let (size, index) = paging(req)
        return try queryReply(req, nxql: text, queryParams: req.query.filter { $0.name == "queryParams" }.map(\.value),
                              pageSize: size, pageIndex: index,
                              sortBy: req.queryValue("sortBy"), sortOrder: req.queryValue("sortOrder"))
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
