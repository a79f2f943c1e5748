import Foundation

/// `<tree …>` node elements in the attribute orders pydio-core 8.2.5 writes
/// (`NodeXML::toNode` after each code path merged its metadata).
struct NodeXML: Sendable {
    var path: String
    var node: StoredNode
    /// Render time (`ajxp_im_time`, relative dates).
    var now: Int64
    /// Whether the node has a public link (`ls` then marks it, recording 58).
    var isShared = false

    private var name: String { PathTools.name(path) }
    private var isRecycle: Bool { path == PathTools.recycle }
    private var isFileString: String { node.isFolder ? "false" : "true" }

    private var typeAttributes: [(String, String)] {
        if isRecycle {
            return [("icon", "trashcan.png"), ("fonticon", "delete"), ("mimestring_id", "122"), ("ajxp_mime", "ajxp_recycle")]
        }
        if node.isFolder {
            return [("mimestring_id", "8"), ("icon", "folder.png"), ("fonticon", "folder"),
                    ("openicon", "folder_open.png"), ("ajxp_mime", "ajxp_folder")]
        }
        let kind = FileKind.of(name)
        return [("mimestring_id", kind.mimestringID), ("icon", kind.icon), ("fonticon", kind.fonticon)]
    }

    private var statAttributes: [(String, String)] {
        [("file_group", "1"), ("file_owner", "1"), ("ajxp_readonly", "false"), ("file_perms", node.perms),
         ("ajxp_modiftime", String(node.mtime)), ("bytesize", String(node.size))]
    }

    private var timeAttributes: [(String, String)] {
        let relative = UnixTime.relative(node.mtime, now: now)
        return [("ajxp_relativetime", relative), ("ajxp_description", "Modified " + relative)]
    }

    /// `filesize` + `mimestring` for files (no `filesize` for an empty one, recordings 47–48),
    /// `mimestring` for folders.
    private var labelAttributes: [(String, String)] {
        if node.isFolder { return [("mimestring", "Directory")] }
        let kind = [("mimestring", FileKind.of(name).label)]
        return node.size == 0 ? kind : [("filesize", FileKind.roundSize(node.size))] + kind
    }

    private var imTime: (String, String) { ("ajxp_im_time", String(now)) }

    /// A node inside `<nodes_diff>` (add/update) or a search hit.
    func diff(repository: String, originalPath: String? = nil, searchScore: String? = nil) -> String {
        var attributes = [("is_file", isFileString), ("filename", path)] + typeAttributes + statAttributes + timeAttributes
        attributes += labelAttributes
        attributes.append(("node_repository_id", repository))
        if let originalPath { attributes.append(("original_path", originalPath)) }
        if let searchScore { attributes.append(("search_score", searchScore)) }
        attributes += [("text", name), imTime]
        return XMLText.element("tree", attributes)
    }

    /// A child in an `ls` answer.
    func child() -> String {
        if isRecycle {
            let attributes = [("is_file", "false"), ("filename", path)] + typeAttributes + statAttributes
                + [("text", "Recycle Bin")] + timeAttributes + [imTime]
            return XMLText.element("tree", attributes)
        }
        let head: [(String, String)] = node.isFolder
            ? [("text", name), ("is_file", "false"), ("filename", path)]
            : [("is_file", "true"), ("text", name), ("filename", path)]
        var labels = labelAttributes
        if isShared, !node.isFolder {
            // Between `filesize` and `mimestring`, as the share plugin merges its metadata.
            labels.insert(contentsOf: [
                ("ajxp_shared", "true"), ("overlay_icon", "shared.png"), ("overlay_class", "mdi mdi-share-variant"),
                ("ajxp_shared_minisite", "file"),
            ], at: labels.count - 1)
        }
        return XMLText.element("tree", head + typeAttributes + statAttributes + timeAttributes + labels + [imTime])
    }

    /// The opening root element of an `ls` answer (the listed folder).
    func root(hasRecycle: Bool) -> String {
        var attributes: [(String, String)] = hasRecycle ? [("repo_has_recycle", PathTools.recycle)] : []
        attributes += [("is_file", "false"), ("filename", path)] + typeAttributes + statAttributes + timeAttributes
        attributes += [("text", isRecycle ? "Recycle Bin" : name), imTime]
        return XMLText.element("tree", attributes, selfClosing: false)
    }

    /// `<tree filename="…" ajxp_im_time="…"/>` inside `<remove>`.
    static func removed(_ path: String, now: Int64) -> String {
        XMLText.element("tree", [("filename", path), ("ajxp_im_time", String(now))])
    }
}
