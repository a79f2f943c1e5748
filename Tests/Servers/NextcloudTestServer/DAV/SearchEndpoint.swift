import Foundation
import Hummingbird

/// `SEARCH /remote.php/dav/` with a `text/xml` `d:basicsearch` body (see ``SearchQuery``); answers a
/// multistatus of the matching files and folders below the scope (the scope itself is not a result),
/// with hrefs under `/remote.php/dav/files/USER/`.
struct SearchEndpoint {
    let core: ServerCore
    let user: String

    func respond(_ req: ServerRequest) throws -> Response {
        guard core.configuration.search else {
            throw SabreError(501, "Sabre\\DAV\\Exception\\NotImplemented", "There was no plugin in the system that was willing to handle this SEARCH method.")
        }
        let query = try SearchQuery.parse(req.body)
        guard query.scopeUser == user else { throw SabreError.forbidden("The scope is outside this user's files") }
        let text = try core.withState { state -> String in
            let root = state.files.root(of: user, now: ServerCore.now)
            guard let scope = state.files.resolve(root, query.scopePath) else {
                throw SabreError.notFound(query.scopePath.joined(separator: "/"))
            }
            var hits: [FileNode] = []
            for id in state.files.subtree(scope, depth: query.depth).dropFirst() {
                guard let node = state.files.nodes[id] else { continue }
                if try query.condition.map({ try SearchQuery.matches($0, node, state.files) }) ?? true { hits.append(node) }
            }
            let store = state.files
            hits.sort { lhs, rhs in
                for order in query.orders {
                    let left = SearchQuery.value(order.property, lhs, store)
                    let right = SearchQuery.value(order.property, rhs, store)
                    if left != right { return order.ascending ? left < right : left > right }
                }
                return store.path(of: lhs.id).joined(separator: "/") < store.path(of: rhs.id).joined(separator: "/")
            }
            let page = hits.dropFirst(query.firstResult).prefix(query.limit ?? Int.max)
            let context = PropertyContext(
                flavor: core.flavor, instanceID: core.instanceID, owner: user, ownerDisplayName: core.configuration.displayName(user),
                store: store, rootID: root, quota: core.configuration.quotaBytes, shareTypes: state.shares.types(owner: user),
                baseURL: core.rootURL)
            let request = PropfindRequest.props(query.select)
            let base = "/remote.php/dav/files/\(FormCodec.encodePath(user))"
            var writer = MultistatusWriter(flavor: core.flavor)
            for node in page {
                let split = request.split(node, context: context, isRoot: false)
                writer.response(href: FilesEndpoint.href(base: base, store: store, id: node.id), found: split.found, groups: [("404 Not Found", split.missing)])
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }
}
