import Foundation

/// `ls&format=json` nodes: the XML attributes as JSON (numbers typed as
/// pydio 8.2.5 types them), plus `path`, `type` and `label`.
struct NodeJSON: Sendable {
    var path: String
    var node: StoredNode
    var now: Int64

    /// `label` is written for children, not for the listed folder itself.
    func render(withLabel: Bool) -> String {
        let name = PathTools.name(path)
        let isRecycle = path == PathTools.recycle
        var pairs: [(String, String)] = []
        if isRecycle {
            pairs += [("icon", JSONText.string("trashcan.png")), ("fonticon", JSONText.string("delete")),
                      ("mimestring_id", "122"), ("ajxp_mime", JSONText.string("ajxp_recycle"))]
        } else if node.isFolder {
            pairs += [("mimestring_id", "8"), ("icon", JSONText.string("folder.png")), ("fonticon", JSONText.string("folder")),
                      ("openicon", JSONText.string("folder_open.png")), ("ajxp_mime", JSONText.string("ajxp_folder"))]
        } else {
            let kind = FileKind.of(name)
            pairs += [("mimestring_id", kind.mimestringID), ("icon", JSONText.string(kind.icon)), ("fonticon", JSONText.string(kind.fonticon))]
        }
        let relative = UnixTime.relative(node.mtime, now: now)
        pairs += [
            ("file_group", "true"), ("file_owner", "true"), ("ajxp_readonly", JSONText.string("false")),
            ("file_perms", JSONText.string(node.perms)), ("ajxp_modiftime", String(node.mtime)), ("bytesize", String(node.size)),
            ("ajxp_relativetime", JSONText.string(relative)), ("ajxp_description", JSONText.string("Modified " + relative)),
        ]
        if withLabel, !isRecycle {
            pairs += node.isFolder ? [("mimestring", JSONText.string("Directory"))]
                : [("filesize", JSONText.string(FileKind.roundSize(node.size))), ("mimestring", JSONText.string(FileKind.of(name).label))]
        }
        pairs += [("path", JSONText.string(path, escapeSlashes: true)), ("type", JSONText.string(node.isFolder ? "collection" : "leaf"))]
        if withLabel { pairs.append(("label", JSONText.string(isRecycle ? "Recycle Bin" : name, escapeSlashes: true))) }
        return JSONText.object(pairs)
    }
}
