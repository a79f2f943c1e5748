import Foundation

extension ActionContext {
    /// `mkdir`: `dir` + `dirname`, or full paths in `file`/`nodes[]`;
    /// `ignore_exists=true`, `recursive=true`.
    func mkdir() -> Reply.Body {
        var targets: [(parent: String, name: String)] = []
        if let dirname = request.param("dirname") {
            targets = [(path("dir") ?? "/", PathTools.sanitizeDirName(dirname))]
        } else {
            targets = selection.map { (PathTools.parent($0), PathTools.sanitizeDirName(PathTools.name($0))) }
        }
        let ignoreExists = request.param("ignore_exists") == "true"
        let recursive = request.param("recursive") == "true"
        return withWorkspace { tree, now in
            var messages: [String] = []
            var added: [String] = []
            for (parent, name) in targets {
                if name.hasPrefix(".") { return Reply.emptyHTML }
                guard !name.isEmpty else { return Reply.error("Please enter a folder name") }
                if tree[parent] == nil, recursive {
                    Self.makeParents(parent, in: &tree, now: now)
                }
                guard let parentNode = tree[parent], parentNode.isFolder else {
                    return Reply.error("The directory \(parent)" + Self.notWriteableSuffix)
                }
                if tree.childIgnoringCase(parent, name) != nil {
                    if ignoreExists { continue }
                    return Reply.error("This directory already exists (names are case insensitive)")
                }
                let path = PathTools.join(parent, name)
                tree.makeFolder(path, now: now)
                messages.append("The directory \(name) has been created in \(parent)")
                if let node = tree[path] {
                    added.append(NodeXML(path: path, node: node, now: now).diff(repository: workspace))
                }
            }
            if messages.isEmpty { return Reply.tree("") }
            return Self.success(messages, Self.nodesDiff(add: added))
        }
    }

    static func makeParents(_ dir: String, in tree: inout Workspace, now: Int64) {
        var chain: [String] = []
        var cursor = dir
        while cursor != "/", tree[cursor] == nil {
            chain.insert(cursor, at: 0)
            cursor = PathTools.parent(cursor)
        }
        for folder in chain { tree.makeFolder(folder, now: now) }
    }

    /// `mkfile`: `dir` + `filename` (or `node`), optional `content`, `force=true`.
    func mkfile() -> Reply.Body {
        let parent: String
        let rawName: String
        if let filename = request.param("filename") {
            parent = path("dir") ?? "/"
            rawName = filename
        } else if let node = path("node") {
            parent = PathTools.parent(node)
            rawName = PathTools.name(node)
        } else {
            return Reply.error("Please enter a file name")
        }
        let name = PathTools.sanitizeFileName(rawName)
        let content = Data((request.param("content") ?? "").utf8)
        let force = request.param("force") == "true"
        return withWorkspace { tree, now in
            if name.hasPrefix(".") { return Reply.emptyHTML }
            guard !name.isEmpty else { return Reply.error("Please enter a file name") }
            guard let parentNode = tree[parent], parentNode.isFolder else {
                return Reply.error("The directory \(parent)" + Self.notWriteableSuffix)
            }
            if tree.childIgnoringCase(parent, name) != nil, !force {
                return Reply.error("This file already exists (names are case insensitive)")
            }
            let path = PathTools.join(parent, name)
            let created = tree.write(path, data: content, now: now)
            guard let node = tree[path] else { return Reply.error("Cannot find file!") }
            let xml = NodeXML(path: path, node: node, now: now)
            let diff = created
                ? Self.nodesDiff(add: [xml.diff(repository: workspace)])
                : Self.nodesDiff(update: [xml.diff(repository: workspace, originalPath: path)])
            return Self.success(["The file \(name) has been created in \(parent)"], diff)
        }
    }

    /// `rename`: `file` + `filename_new` (same folder) or `dest` (full new path).
    func rename() -> Reply.Body {
        guard let source = selection.first else { return Reply.error("") }
        let target: String
        if let newName = request.param("filename_new") {
            target = PathTools.join(PathTools.parent(source), PathTools.sanitizeFileName(newName))
        } else if let dest = path("dest") {
            target = dest
        } else {
            return Reply.error("")
        }
        return withTree { tree, shares, now in
            guard tree[source] != nil, source != "/", source != PathTools.recycle else { return Reply.error("Cannot find file!") }
            let newName = PathTools.name(target)
            if newName.isEmpty || newName.hasPrefix(".") { return Reply.emptyHTML }
            guard let parentNode = tree[PathTools.parent(target)], parentNode.isFolder else {
                return Reply.error("The directory \(PathTools.parent(target))" + Self.notWriteableSuffix)
            }
            if let clash = tree.childIgnoringCase(PathTools.parent(target), newName), clash != source {
                return Reply.error("\(target) already exists  (names are case insensitive)")
            }
            tree.move(source, to: target, now: now)
            tree.markUpdated(target, from: source)
            shares.repoint(workspace: workspace, from: source, to: target)
            guard let node = tree[target] else { return Reply.error("Cannot find file!") }
            let update = NodeXML(path: target, node: node, now: now).diff(repository: workspace, originalPath: source)
            return Self.success(["\(PathTools.name(source)) has been renamed to \(newName)"],
                                Self.nodesDiff(update: [update]) + "<consume_channel/>")
        }
    }

    /// `put_content`: `file` + `content` (`encode=base64` optional).
    func putContent() -> Reply.Body {
        guard let target = selection.first else { return Reply.error("") }
        var content = Data((request.param("content") ?? "").utf8)
        if request.param("encode") == "base64", let decoded = Data(base64Encoded: request.param("content") ?? "") {
            content = decoded
        }
        return withWorkspace { tree, now in
            guard let parentNode = tree[PathTools.parent(target)], parentNode.isFolder, tree[target]?.isFolder != true else {
                return Reply.error("Cannot find file!")
            }
            tree.write(target, data: content, now: now)
            guard let node = tree[target] else { return Reply.error("Cannot find file!") }
            let update = NodeXML(path: target, node: node, now: now).diff(repository: workspace, originalPath: target)
            return Self.success(["The file has been saved successfully"], Self.nodesDiff(update: [update]))
        }
    }
}
