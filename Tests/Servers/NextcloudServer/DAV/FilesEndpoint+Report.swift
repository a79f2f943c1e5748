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
            let tagged = !rules.children(.o("systemtag")).isEmpty
            return try matching(root, depth: nil) { node in favorites && node.favorite && !tagged }
        case .o("search-files"):
            let pattern = root.child(.o("search"))?.child(.o("pattern"))?.text.lowercased() ?? ""
            guard !pattern.isEmpty else { throw SabreError.badRequest("Missing search pattern") }
            return try matching(root, depth: nil) { node in node.name.lowercased().contains(pattern) }
        default:
            throw SabreError(415, "Sabre\\DAV\\Exception\\ReportNotSupported", "The {\(root.name.namespace)}\(root.name.local) REPORT is not supported")
        }
    }

    /// A multistatus of the nodes below the target that satisfy `filter`, with the `d:prop` of `body`.
    private func matching(_ body: DAVElement, depth: Int?, _ filter: (FileNode) -> Bool) throws -> Response {
        let names = body.child(.d("prop"))?.children.map(\.name) ?? [.d("getetag")]
        let request = PropfindRequest.props(names)
        let text = try core.withState { state -> String in
            let root = rootID(&state)
            guard let target = state.files.resolve(root, path) else { throw SabreError.notFound(relative) }
            let context = propertyContext(state, rootID: root)
            var writer = MultistatusWriter(flavor: core.flavor)
            let base = "/remote.php/dav/files/\(FormCodec.encodePath(user))"
            for id in state.files.subtree(target, depth: depth).dropFirst() {
                guard let node = state.files.nodes[id], filter(node) else { continue }
                let split = request.split(node, context: context, isRoot: false)
                writer.response(href: Self.href(base: base, store: state.files, id: id), found: split.found, groups: [("404 Not Found", split.missing)])
            }
            return writer.finish()
        }
        return Reply.xml(text)
    }
}
