import Foundation
import Hummingbird

extension FilesEndpoint {
    /// REPORT `oc:filter-files` (favorites; system tags are not kept, so a tag rule matches nothing)
    /// and ownCloud's `oc:search-files` (name pattern).
    func report(_ req: ServerRequest) throws -> Response {
        let root = try DAVElement.parse(req.body)
        switch root.name {
        case .o("filter-files"):
            guard let rules = root.child(.o("filter-rules")), !rules.children.isEmpty else {
                throw SabreError.badRequest("Missing filter-rule block in request")
            }
            let favorites = rules.children(.o("favorite")).contains { $0.text.trimmingCharacters(in: .whitespaces) == "1" }
            let tagIDs = rules.children(.o("systemtag")).map { Int($0.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
            let relations = core.withState { $0.tags.relations }
            // Nextcloud 18 answered filter-files in file id order, each response with a status before its
            // href and folders without the trailing slash, as recorded.
            return try matching(root, depth: nil, nextcloud18Shape: core.isNextcloud) { node in
                (!favorites || node.favorite) && (favorites || !tagIDs.isEmpty)
                    && tagIDs.allSatisfy { relations[node.id]?.contains($0) == true }
            }
        case .o("search-files"):
            let pattern = root.child(.o("search"))?.child(.o("pattern"))?.text.lowercased() ?? ""
            guard !pattern.isEmpty else { throw SabreError.badRequest("Missing search pattern") }
            return try matching(root, depth: nil) { node in node.name.lowercased().contains(pattern) }
        default:
            throw SabreError(415, "Sabre\\DAV\\Exception\\ReportNotSupported", "The {\(root.name.namespace)}\(root.name.local) REPORT is not supported")
        }
    }

    /// A multistatus of the nodes below the target that satisfy `filter`, with the `d:prop` of `body`.
    private func matching(_ body: DAVElement, depth: Int?, nextcloud18Shape: Bool = false, _ filter: (FileNode) -> Bool) throws -> Response {
        let names = body.child(.d("prop"))?.children.map(\.name) ?? [.d("getetag")]
        let request = PropfindRequest.props(names)
        let text = try core.withState { state -> String in
            let root = rootID(&state)
            guard let target = state.files.resolve(root, path) else { throw SabreError.notFound(relative) }
            let context = propertyContext(state, rootID: root)
            var writer = MultistatusWriter(flavor: core.flavor)
            let base = "/remote.php/dav/files/\(FormCodec.encodePath(user))"
            var ids = Array(state.files.subtree(target, depth: depth).dropFirst())
            if nextcloud18Shape { ids.sort() }
            for id in ids {
                guard let node = state.files.nodes[id], filter(node) else { continue }
                let split = request.split(node, context: context, isRoot: false)
                var href = Self.href(base: base, store: state.files, id: id)
                if nextcloud18Shape, href.hasSuffix("/") { href.removeLast() }
                writer.response(href: href, found: split.found, groups: [("404 Not Found", split.missing)], statusFirst: nextcloud18Shape)
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }
}
