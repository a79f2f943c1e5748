import Foundation
import LoopbackServerKit

extension ActionContext {
    /// `copy`, `move` (`dest` + selection, `targetBaseName`) and `delete`
    /// (to the recycle bin, or for good inside it). Above
    /// `backgroundTaskBytes` the answer is `<consume_channel/>` only and the
    /// change is applied about 0.5 s later, as 8.x background tasks.
    func transfer(_ action: String) -> Reply.Body {
        let items = selection
        if items.isEmpty { return Reply.error("") }
        let bytes = withWorkspace { tree, _ in items.reduce(0) { $0 + tree.totalBytes($1) } }
        guard bytes > core.configuration.backgroundTaskBytes else { return apply(action, items) }
        let deferred = self
        if core.configuration.holdsBackgroundTasks {
            core.hold { _ = deferred.apply(action, items) }
            return Reply.tree("<consume_channel/>")
        }
        Task(executorPreference: LoopbackExecutor.shared) {
            try? await Task.sleep(nanoseconds: 500_000_000)
            _ = deferred.apply(action, items)
        }
        return Reply.tree("<consume_channel/>")
    }

    private func apply(_ action: String, _ items: [String]) -> Reply.Body {
        switch action {
        case "delete": return delete(items)
        default: return copyOrMove(items, move: action == "move")
        }
    }

    private func copyOrMove(_ items: [String], move: Bool) -> Reply.Body {
        guard let dest = path("dest") else { return Reply.error("") }
        let baseName = request.param("targetBaseName").map(PathTools.sanitizeFileName)
        return withTree { tree, shares, now in
            guard let destNode = tree[dest], destNode.isFolder else {
                return Reply.error("The directory \(dest)" + Self.notWriteableSuffix)
            }
            var messages: [String] = []
            var changed: [String] = []
            for source in items {
                guard tree[source] != nil, source != "/", source != PathTools.recycle else {
                    return Reply.error("Cannot find file!")
                }
                let name = (items.count == 1 ? baseName : nil).flatMap { $0.isEmpty ? nil : $0 } ?? PathTools.name(source)
                if PathTools.isWithin(dest, source) {
                    return Reply.error("Cannot copy or move a folder into itself: \(source)")
                }
                var target = PathTools.join(dest, name)
                if move {
                    if target == source { continue }
                    if tree[target] != nil { return Reply.error("A file with the same name already exists: \(target)") }
                    tree.move(source, to: target, now: now)
                    tree.markUpdated(target, from: source)
                    shares.repoint(workspace: workspace, from: source, to: target)
                    messages.append("The file \(PathTools.name(source)) has been moved into the directory \(dest)")
                } else {
                    if tree[target] != nil { target = PathTools.join(dest, tree.freeName(in: dest, for: name)) }
                    tree.copy(source, to: target, now: now)
                    messages.append("The file \(PathTools.name(source)) has been copied into the directory \(dest)")
                }
                if let node = tree[target] {
                    changed.append(NodeXML(path: target, node: node, now: now)
                        .diff(repository: workspace, originalPath: move ? source : nil))
                }
            }
            if messages.isEmpty { return Reply.tree("") }
            if move { return Self.success(messages, Self.nodesDiff(update: changed) + "<consume_channel/>") }
            return Self.success(messages, Self.nodesDiff(add: changed))
        }
    }

    private func delete(_ items: [String]) -> Reply.Body {
        withTree { tree, shares, now in
            var messages: [String] = []
            var updated: [String] = []
            var removed: [String] = []
            for source in items {
                guard tree[source] != nil, source != "/", source != PathTools.recycle else {
                    return Reply.error("Cannot find file!")
                }
                if PathTools.isWithin(source, PathTools.recycle) {
                    tree.remove(source, now: now)
                    for link in shares.links.values where PathTools.isWithin(link.path, source) && link.workspace == workspace {
                        shares.remove(link.hash)
                    }
                    messages.append("The file \(source) has been deleted.")
                    removed.append(NodeXML.removed(source, now: now))
                } else {
                    let name = PathTools.name(source)
                    let target = PathTools.join(PathTools.recycle, tree.freeName(in: PathTools.recycle, for: name))
                    tree.move(source, to: target, now: now)
                    tree.setRecycledFrom(target, PathTools.parent(source))
                    tree.markUpdated(target, from: source)
                    shares.repoint(workspace: workspace, from: source, to: target)
                    messages.append("The file \(name) has been moved to the  Recycle Bin")
                    if let node = tree[target] {
                        updated.append(NodeXML(path: target, node: node, now: now).diff(repository: workspace, originalPath: source))
                    }
                }
            }
            return Self.success(messages, Self.nodesDiff(update: updated, remove: removed) + "<consume_channel/>")
        }
    }

    /// `restore`: moves an item of the recycle bin back to where it was deleted from.
    func restore() -> Reply.Body {
        guard let source = selection.first else { return Reply.error("") }
        return withTree { tree, shares, now in
            guard let node = tree[source], source != PathTools.recycle, PathTools.isWithin(source, PathTools.recycle) else {
                return Reply.error("Cannot find file!")
            }
            let origin = node.recycledFrom ?? "/"
            if tree[origin] == nil { Self.makeParents(origin, in: &tree, now: now) }
            let name = PathTools.name(source)
            let target = PathTools.join(origin, tree.freeName(in: origin, for: name))
            tree.move(source, to: target, now: now)
            tree.setRecycledFrom(target, nil)
            tree.markUpdated(target, from: source)
            shares.repoint(workspace: workspace, from: source, to: target)
            guard let restored = tree[target] else { return Reply.error("Cannot find file!") }
            let update = NodeXML(path: target, node: restored, now: now).diff(repository: workspace, originalPath: source)
            return Self.success(["The file \(name) has been restored to \(origin)"], Self.nodesDiff(update: [update]) + "<consume_channel/>")
        }
    }
}
