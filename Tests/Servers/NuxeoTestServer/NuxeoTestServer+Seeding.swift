import Foundation

extension NuxeoTestServer {
    /// Creates the folder at `path`, an absolute repository path such as
    /// `/default-domain/workspaces/strata/reports`, and its missing ancestors, as `Folder`
    /// documents made by `system`. For seeding test and benchmark data.
    ///
    /// - Returns: `false` when a segment of `path` names a document that is not folderish.
    @discardableResult
    public func seedFolder(path: String) -> Bool {
        core.withState { $0.repository.seedFolder(path, user: "system") != nil }
    }

    /// Places files in the folder at `path` (created as by ``seedFolder(path:)`` when missing) as
    /// `File` documents, as `FileManager.Import` would: the title is the file name, the name
    /// follows Nuxeo's path segment rules and is de-duplicated against the siblings. Meant for
    /// bulk seeding: the siblings' names are read once for all `files`, so ten thousand files
    /// take a fraction of a second.
    ///
    /// - Returns: `false` when `path` cannot be a folder (a segment names a document that is not folderish).
    @discardableResult
    public func seedFiles(in path: String, _ files: [(name: String, contents: Data)]) -> Bool {
        let blobs = files.map { (name: $0.name, blob: StoredBlob(data: $0.contents, filename: $0.name, mimeType: Self.mimeType(of: $0.name))) }
        return core.withState { state in
            guard let folder = state.repository.seedFolder(path, user: "system") else { return false }
            state.repository.seedFiles(blobs, in: folder, user: "system")
            return true
        }
    }

    private static func mimeType(of name: String) -> String {
        name.lowercased().hasSuffix(".txt") ? "text/plain" : "application/octet-stream"
    }
}
