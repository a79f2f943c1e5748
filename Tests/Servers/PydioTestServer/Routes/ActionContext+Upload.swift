import Foundation

extension ActionContext {
    /// `upload`: multipart `userfile_0` (any file part), or `PUT` with
    /// `input_stream=true` + `X-File-Name`; `urlencoded_filename`,
    /// `auto_rename`, chunks with `partial_upload` /
    /// `appendto_urlencoded_part`. Errors are text `"message (code)"`; without
    /// `xhr_uploader=true` the answer is empty.
    func upload() -> Reply.Body {
        let result = store()
        let xhr = request.param("xhr_uploader") == "true" || request.param("force_post") == "true"
        if case .tree = result.kind, !xhr { return Reply.emptyHTML }
        switch result.kind {
        case .tree(let inner): return Reply.tree(inner)
        case .text(let text): return Reply.plain(text)
        case .empty: return Reply.emptyHTML
        }
    }

    private struct StoreResult {
        enum Kind {
            case tree(String)
            case text(String)
            case empty
        }

        var kind: Kind
    }

    private func store() -> StoreResult {
        let dir = path("dir") ?? "/"
        let data: Data
        var name: String
        if request.method == "PUT" || request.param("input_stream") == "true" {
            data = request.rawBody
            name = FormCodec.rawurldecode(request.header("X-File-Name") ?? "")
        } else if let file = request.files.first(where: { $0.field == "userfile_0" }) ?? request.files.first {
            data = file.data
            name = file.filename
        } else {
            return StoreResult(kind: .text("No file found (411)"))
        }
        // `parseFileDataErrors`: an empty file is "no file" (recording 46).
        if data.isEmpty { return StoreResult(kind: .text("You must select a file (410)")) }
        if let encoded = request.param("urlencoded_filename") { name = FormCodec.urldecode(encoded) }
        // Uploaded names are stored precomposed (recordings 49–50), unlike folder names.
        name = name.precomposedStringWithCanonicalMapping
        if let slash = name.lastIndex(of: "/") { name = String(name[name.index(after: slash)...]) }
        let appendTo = request.param("appendto_urlencoded_part").map { FormCodec.urldecode($0).precomposedStringWithCanonicalMapping }
        let partial = request.param("partial_upload") == "true"
        let target = Int(request.param("partial_target_bytesize") ?? "")
        let autoRename = request.param("auto_rename") == "true"
        return withWorkspace { tree, now in
            guard let dirNode = tree[dir], dirNode.isFolder else {
                return StoreResult(kind: .text("The directory \(dir)" + Self.notWriteableSuffix + ". (412)"))
            }
            if let appendTo {
                let finalName = appendTo.hasSuffix(".dlpart") ? String(appendTo.dropLast(7)) : appendTo
                if PathTools.hasForbiddenCharacters(finalName) {
                    return StoreResult(kind: .text("\(finalName) contains forbidden characters (411)"))
                }
                let finalPath = PathTools.join(dir, finalName)
                guard partial else {
                    tree.append(finalPath, data: data, now: now)
                    return finish(&tree, path: finalPath, created: false, now: now)
                }
                let partPath = finalPath + ".dlpart"
                tree.append(partPath, data: data, now: now)
                return complete(&tree, part: partPath, final: finalPath, target: target, now: now)
            }
            if PathTools.hasForbiddenCharacters(name) {
                return StoreResult(kind: .text("\(name) contains forbidden characters (411)"))
            }
            if name.isEmpty || name.hasPrefix(".") { return StoreResult(kind: .empty) }
            if autoRename { name = tree.freeName(in: dir, for: name) }
            let finalPath = PathTools.join(dir, name)
            if partial, let target {
                let partPath = finalPath + ".dlpart"
                tree.write(partPath, data: data, now: now)
                return complete(&tree, part: partPath, final: finalPath, target: target, now: now)
            }
            let created = tree.write(finalPath, data: data, now: now)
            return finish(&tree, path: finalPath, created: created, now: now)
        }
    }

    /// Renames the `.dlpart` once it holds `target` bytes.
    private func complete(_ tree: inout Workspace, part: String, final: String, target: Int?, now: Int64) -> StoreResult {
        guard let size = tree[part]?.size, size >= (target ?? Int.max) else { return StoreResult(kind: .tree("")) }
        let existed = tree[final] != nil
        if existed { tree.remove(final, now: now) }
        tree.move(part, to: final, now: now)
        return finish(&tree, path: final, created: !existed, now: now)
    }

    private func finish(_ tree: inout Workspace, path: String, created: Bool, now: Int64) -> StoreResult {
        if !created { tree.markUpdated(path, from: path) }
        guard let node = tree[path] else { return StoreResult(kind: .text("Error while uploading (411)")) }
        let xml = NodeXML(path: path, node: node, now: now)
        let diff = created
            ? Self.nodesDiff(add: [xml.diff(repository: workspace)])
            : Self.nodesDiff(update: [xml.diff(repository: workspace, originalPath: path)])
        return StoreResult(kind: .tree(diff))
    }
}
