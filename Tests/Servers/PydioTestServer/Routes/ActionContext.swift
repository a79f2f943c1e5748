import Foundation
import Hummingbird

/// A file action on one workspace, on behalf of one user.
struct ActionContext: Sendable {
    let request: ActionRequest
    /// The workspace id (`0`, `1`).
    let workspace: String
    let user: String
    let core: ServerCore

    /// Runs `body` on the workspace under the server lock; `now` is the render time.
    func withWorkspace<T>(_ body: (inout Workspace, Int64) -> T) -> T {
        withTree { tree, _, now in body(&tree, now) }
    }

    /// As ``withWorkspace(_:)``, with the share links too (moves repoint them).
    ///
    /// The workspace is taken out of the state while `body` runs, so that its nodes are not
    /// shared with a second copy: a change writes in place instead of copying every node (and
    /// an appended part does not copy the whole file).
    func withTree<T>(_ body: (inout Workspace, inout ShareStore, Int64) -> T) -> T {
        let id = workspace
        return core.withState { state in
            var tree = state.workspaces.removeValue(forKey: id) ?? Workspace(id: id, created: UnixTime.now)
            let result = body(&tree, &state.shares, UnixTime.now)
            state.workspaces[id] = tree
            return result
        }
    }

    /// A path parameter, normalised (`nil` when absent).
    func path(_ name: String) -> String? {
        request.param(name).map(PathTools.normalize)
    }

    /// The selected nodes: `nodes[]`, else `file_0…file_N`, else `file`.
    var selection: [String] {
        var items = request.params("nodes[]")
        if items.isEmpty {
            let numbered = (request.query + request.form).compactMap { pair -> (Int, String)? in
                guard pair.name.hasPrefix("file_"), let index = Int(pair.name.dropFirst(5)) else { return nil }
                return (index, pair.value)
            }
            var byIndex: [Int: String] = [:]
            for (index, value) in numbered { byIndex[index] = value }
            items = byIndex.keys.sorted().compactMap { byIndex[$0] }
        }
        if items.isEmpty, let file = request.param("file"), !file.isEmpty { items = [file] }
        return items.filter { !$0.isEmpty }.map(PathTools.normalize)
    }

    /// `pydio://admin@1/missing` as the error messages name a path.
    func streamURL(_ path: String) -> String {
        "pydio://\(user)@\(workspace)\(path == "/" ? "" : path)"
    }

    /// `<tree ><message type="SUCCESS">…</message>…</tree>`
    static func success(_ messages: [String], _ rest: String = "") -> Reply.Body {
        Reply.tree("<message type=\"SUCCESS\">" + XMLText.escape(messages.joined(separator: "\n")) + "</message>" + rest)
    }

    /// `<nodes_diff>` with the given sections (empty ones left out).
    static func nodesDiff(add: [String] = [], update: [String] = [], remove: [String] = []) -> String {
        var inner = ""
        if !add.isEmpty { inner += "<add>" + add.joined() + "</add>" }
        if !update.isEmpty { inner += "<update>" + update.joined() + "</update>" }
        if !remove.isEmpty { inner += "<remove>" + remove.joined() + "</remove>" }
        return inner.isEmpty ? "" : "<nodes_diff>" + inner + "</nodes_diff>"
    }

    static let notWriteableSuffix = " is not writeable. There might be a permission problem, please check with your administrator."
}
