import Foundation
import Hummingbird

extension ActionContext {
    /// `download`: one file's bytes (`Range` honoured); missing or a folder → the XML error.
    func download() -> Outcome {
        let target = selection.first ?? "/"
        let node = withWorkspace { tree, _ in tree[target] }
        guard let node, !node.isFolder else { return .body(Reply.error("Cannot find file!")) }
        let drop = core.faults.takeDownloadDrop()
        return .response(FileServing.serve(
            name: PathTools.name(target), data: node.data, mtime: node.mtime, range: request.header("Range"), dropAfter: drop
        ))
    }
}
