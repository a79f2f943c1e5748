import Foundation

extension ActionContext {
    /// `share` with `sub_action=create_minisite` (or `simple_share_type`):
    /// a public link; the answer is its URL as text.
    func share() -> Reply.Body {
        let subAction = request.param("sub_action") ?? (request.param("simple_share_type") != nil ? "create_minisite" : "")
        guard subAction == "create_minisite" else { return Reply.emptyHTML }
        guard let target = selection.first else { return Reply.error("Cannot find file!") }
        let root = core.publicRootURL
        let expiration = Int(request.param("expiration") ?? "") ?? 0
        let password = request.param("guest_user_pass").flatMap { $0.isEmpty ? nil : $0 }
        let limit = Int(request.param("downloadlimit") ?? "").flatMap { $0 > 0 ? $0 : nil }
        let handle = request.param("custom_handle").flatMap { $0.isEmpty ? nil : $0 }
        let owner = user
        let workspace = workspace
        return withTree { tree, shares, now in
            guard tree[target] != nil, target != "/" else { return Reply.error("Cannot find file!") }
            var hash = shares.newHash()
            if let handle {
                guard shares.links[handle] == nil else { return Reply.error("This handle is already used: \(handle)") }
                hash = handle
            }
            shares.add(ShareStore.Link(
                hash: hash, workspace: workspace, path: target, owner: owner, created: now,
                expireDays: max(expiration, 0), password: password, downloadLimit: limit
            ))
            return Reply.plainCompact("\(root)/public/\(hash)")
        }
    }

    /// `load_shared_element_data`: the share JSON of a node, links keyed by hash.
    func shareData() -> Reply.Body {
        guard let target = selection.first else { return Reply.error("Cannot find file!") }
        let root = core.publicRootURL
        let workspace = workspace
        return withTree { _, shares, now in
            let links = shares.links(workspace: workspace, path: target)
            guard let first = links.first else { return Reply.error("Cannot find share for node \(target)") }
            return Reply.json(ShareJSON.render(links: links, first: first, root: root, now: now))
        }
    }

    /// `unshare`: one link (`element_id` or `hash`) or every link of the node.
    func unshare() -> Reply.Body {
        guard let target = selection.first else { return Reply.error("Cannot find file!") }
        let only = request.param("element_id") ?? request.param("hash")
        let workspace = workspace
        return withTree { _, shares, _ in
            var links = shares.links(workspace: workspace, path: target)
            if let only, !only.isEmpty { links = links.filter { $0.hash == only } }
            guard !links.isEmpty else { return Reply.error("Cannot find share for node \(target)") }
            for link in links { shares.remove(link.hash) }
            return Reply.tree("<message type=\"SUCCESS\">Successfully unshared element</message><consume_channel/>")
        }
    }
}
