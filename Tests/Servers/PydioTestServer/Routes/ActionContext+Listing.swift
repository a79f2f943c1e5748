import Foundation

extension ActionContext {
    /// `ls`: a folder's children (folders first, natural case-insensitive
    /// order, recycle bin last at the root), paginated above the threshold;
    /// or, with `file`/`nodes[]` and no `dir`, just those nodes.
    func list() -> Reply.Body {
        let options = request.param("options") ?? "a"
        let dirValue = request.param("dir")
        if dirValue == nil, !selection.isEmpty { return listSelection() }
        let (dir, page) = withWorkspace { tree, _ in Self.pageTarget(dirValue ?? "/", in: tree) }
        let workspace = workspace
        return withTree { tree, shares, now in
            guard let node = tree[dir] else {
                return Reply.error("There was a problem trying to open folder \(streamURL(dir)), please check your Administrator")
            }
            guard node.isFolder else { return Reply.error("Error while trying to open directory \(streamURL(dir))") }
            let wantsAll = options.contains("a") || !(options.contains("d") || options.contains("f") || options.contains("z"))
            let wantsDirs = wantsAll || options.contains("d")
            let wantsFiles = wantsAll || options.contains("f") || options.contains("z")
            let children = tree.children(of: dir).filter { $0.path != PathTools.recycle }
            let folders = NaturalOrder.sorted(children.filter { $0.node.isFolder }) { PathTools.name($0.path) }
            let files = NaturalOrder.sorted(children.filter { !$0.node.isFolder }) { PathTools.name($0.path) }
            var entries = (wantsDirs ? folders : []) + (wantsFiles ? files : [])
            if dir == "/", wantsDirs, let bin = tree[PathTools.recycle] { entries.append((PathTools.recycle, bin)) }
            let json = request.param("format") == "json"
            var out = NodeXML(path: dir, node: node, now: now).root(hasRecycle: dir == "/")
            let threshold = core.configuration.paginationThreshold
            if entries.count > threshold {
                let size = max(core.configuration.pageSize, 1)
                let pages = (entries.count + size - 1) / size
                let current = min(max(page, 1), pages)
                if !(request.isNativeApp && pages == 1), !json {
                    let dirsCount = entries.filter { $0.node.isFolder }.count
                    out += "<pagination count=\"\(entries.count)\" total=\"\(pages)\" current=\"\(current)\" overflowMessage=\"\(current)/\(pages)\""
                        + " icon=\"folder.png\" openicon=\"folder_open.png\" dirsCount=\"\(dirsCount)\""
                        + " remote_order='true' currentOrderCol='' currentOrderDir=''/>"
                }
                let start = (current - 1) * size
                entries = Array(entries[start..<min(start + size, entries.count)])
            }
            if json {
                let children = entries.map {
                    JSONText.string($0.path, escapeSlashes: true) + ":" + NodeJSON(path: $0.path, node: $0.node, now: now).render(withLabel: true)
                }
                let document = "{\"node\":" + NodeJSON(path: dir, node: node, now: now).render(withLabel: false)
                    + ",\"children\":{" + children.joined(separator: ",") + "}}"
                return Reply.Body(data: Data(document.utf8), contentType: "application/json; charset=UTF-8", headerName: "Content-Type")
            }
            for entry in entries {
                let shared = !shares.links(workspace: workspace, path: entry.path).isEmpty
                out += NodeXML(path: entry.path, node: entry.node, now: now, isShared: shared).child()
            }
            return Reply.xml(out + "</tree>")
        }
    }

    /// `ls` with `file`/`nodes[]`: a virtual root with one child per existing node.
    private func listSelection() -> Reply.Body {
        let paths = selection
        return withWorkspace { tree, now in
            var out = XMLText.element("tree", [("filename", "/"), ("text", ""), ("is_file", "true")], selfClosing: false)
            for path in paths {
                guard let node = tree[path] else { continue }
                out += NodeXML(path: path, node: node, now: now).child()
            }
            return Reply.xml(out + "</tree>")
        }
    }

    /// Splits a page suffix off `dir`: `/big%232` → (`/big`, 2), unless the whole value names an
    /// existing node. The marker is the literal text `%23` (sent as `%2523` on the wire, recording 90);
    /// a decoded `#` is no page marker.
    static func pageTarget(_ raw: String, in tree: Workspace) -> (String, Int) {
        let whole = PathTools.normalize(raw)
        if tree[whole] != nil { return (whole, 1) }
        if let range = raw.range(of: "%23", options: .backwards) {
            let suffix = raw[range.upperBound...]
            if let page = Int(suffix), !suffix.isEmpty {
                return (PathTools.normalize(String(raw[..<range.lowerBound])), page)
            }
        }
        return (whole, 1)
    }

    /// `stat`: PHP `stat()` JSON of `file`, `{}` when missing; with `nodes[]`, keyed by path.
    func stat() -> Reply.Body {
        let multiple = !request.params("nodes[]").isEmpty
        let paths = selection
        return withWorkspace { tree, _ in
            func render(_ path: String) -> String {
                guard let node = tree[path] else { return "{}" }
                let subfolders = node.isFolder ? tree.children(of: path).filter { $0.node.isFolder }.count : 0
                return StatJSON.render(node, subfolders: subfolders)
            }
            if multiple {
                return Reply.json("{" + paths.map { JSONText.string($0) + ":" + render($0) }.joined(separator: ",") + "}")
            }
            return Reply.json(paths.first.map(render) ?? "{}")
        }
    }
}
