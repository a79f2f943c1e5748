import Foundation
import ProviderAPI

extension PydioProvider {
    /// The folder's location: the server of the base URL, in the namespace of the workspace (by
    /// its id, whether the settings name it by id or slug) and the user (a personal workspace
    /// such as `my-files` holds each user's own files; a shared one is compared by a probe), at
    /// the workspace path of the root folder followed by `path`.
    public func location(of path: ItemPath) async throws -> TreeLocation {
        let workspace = try await workspaces().first(where: { $0.matches(settings.workspace) })?.id ?? settings.workspace
        return TreeLocation(
            server: ServerIdentity(family: "pydio", url: settings.baseURL), namespace: "\(workspace) of \(account.user ?? "")",
            path: TreeLocation.segments(ofPath: settings.rootPath) + path.segments, caseInsensitive: !capabilities.names.caseSensitive)
    }
}
