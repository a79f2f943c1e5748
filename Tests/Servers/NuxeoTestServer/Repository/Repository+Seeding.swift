import Foundation

extension Repository {
    /// The folder at `path` (absolute, such as `/default-domain/workspaces/strata/big`), created
    /// with its missing ancestors as `Folder` documents; `nil` when a segment names a document
    /// that is not folderish.
    mutating func seedFolder(_ path: String, user: String) -> String? {
        var current = rootUID
        for segment in path.split(separator: "/").map(String.init) {
            if let child = children(of: current).first(where: { $0.name == segment && !$0.isTrashed }) {
                guard child.isFolderish else { return nil }
                current = child.uid
                continue
            }
            let folder = insert(parent: current, name: segment, type: Repository.type("Folder"), title: segment, user: user)
            log(AuditEntry.Event.created, folder.uid, user: user)
            current = folder.uid
        }
        return current
    }

    /// Adds `File` documents under `folder` as `FileManager.Import` does (title = file name, name
    /// from the path segment rules, de-duplicated), reading the siblings' names once for the
    /// whole batch instead of once per file.
    mutating func seedFiles(_ files: [(name: String, blob: StoredBlob)], in folder: String, user: String) {
        var names = Set(children(of: folder).map(\.name))
        for file in files {
            let doc = insert(
                parent: folder, name: PathSegment.generate(file.name), type: Repository.type("File"), title: file.name,
                user: user, taken: { names.contains($0) })
            names.insert(doc.name)
            mutate(doc.uid) { $0.blob = file.blob }
            log(AuditEntry.Event.created, doc.uid, user: user)
        }
    }
}
