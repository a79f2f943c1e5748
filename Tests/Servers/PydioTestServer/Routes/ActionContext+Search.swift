import Foundation

extension ActionContext {
    /// `search`: case-insensitive substring on names (and on the text of
    /// files up to 1 MB when `fields` names `ajxp_document_content` and the
    /// server indexes content: the stock "My Files" does not, recording 60), below
    /// `current_dir` when given; `limit` caps the hits. Shorter names score
    /// higher (`search_score`, best = 1.00).
    ///
    /// A `current_dir` other than `/` becomes a path wildcard that Lucene expands into one term
    /// per indexed path below it; more than ``termLimit`` terms are refused (recording 54).
    func search() -> Reply.Body {
        var query = (request.param("query") ?? "").trimmingCharacters(in: .whitespaces)
        while query.hasSuffix("*") { query.removeLast() }
        let needle = query.lowercased()
        let scope = path("current_dir") ?? "/"
        let contents = (request.param("fields") ?? "").contains("ajxp_document_content") && core.configuration.indexesContent
        let limit = Int(request.param("limit") ?? "") ?? Int.max
        return withWorkspace { tree, now in
            if scope != "/" {
                let terms = tree.nodes.lazy.filter { PathTools.isWithin($0.key, scope) && !PathTools.same($0.key, scope) }.count
                if terms > Self.termLimit { return Reply.error("Terms per query limit is reached.") }
            }
            var hits: [(path: String, node: StoredNode)] = []
            if !needle.isEmpty {
                for (path, node) in tree.nodes where path != "/" && path != PathTools.recycle && PathTools.isWithin(path, scope) {
                    let name = PathTools.name(path)
                    var matched = name.lowercased().contains(needle)
                    if !matched, contents, !node.isFolder, node.size <= 1 << 20,
                       let text = String(data: node.data, encoding: .utf8) {
                        matched = text.lowercased().contains(needle)
                    }
                    if matched { hits.append((path, node)) }
                }
            }
            let best = hits.map { PathTools.name($0.path).count }.min() ?? 0
            func score(_ path: String) -> Double { 1 / (1 + 0.1 * Double(PathTools.name(path).count - best)) }
            hits.sort { lhs, rhs in
                let (left, right) = (score(lhs.path), score(rhs.path))
                return left != right ? left > right : NaturalOrder.less(lhs.path, rhs.path)
            }
            var out = XMLText.element("tree", [("text", ""), ("is_file", "false"), ("filename", "/"), ("ajxp_im_time", String(now))], selfClosing: false)
            for hit in hits.prefix(limit) {
                out += NodeXML(path: hit.path, node: hit.node, now: now).diff(
                    repository: workspace, originalPath: hit.node.lastOriginalPath, searchScore: String(format: "%.2f", score(hit.path)))
            }
            return Reply.xml(out + "</tree>")
        }
    }

    /// Zend Search Lucene's `maxClauseCount`: terms one query may expand into.
    static let termLimit = 1_024
}
