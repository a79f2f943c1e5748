import Foundation
import ProviderAPI

extension NuxeoProvider {
    /// The folder's location: the server of the base URL, in the namespace of the repository, at
    /// the repository path (the server's own names, not the display names of the provider's
    /// paths) of the nearest existing folder on the way to `path`, followed by the rest of
    /// `path`. Users play no part: a document has one path whoever reads it.
    public func location(of path: ItemPath) async throws -> TreeLocation {
        var existing = path
        var rest: [String] = []
        var serverPath: String?
        while serverPath == nil {
            do {
                serverPath = try await resolver.document(at: existing).path ?? (existing.isRoot ? settings.rootPath : nil)
                if serverPath == nil { throw ProviderError(.invalidResponse, "Nuxeo sent no path for \(existing)") }
            } catch let error as ProviderError where error.code == .notFound && !existing.isRoot {
                rest.insert(existing.name, at: 0)
                existing = existing.parent
            }
        }
        return TreeLocation(
            server: ServerIdentity(family: "nuxeo", url: settings.baseURL), namespace: settings.defaults.repository,
            path: TreeLocation.segments(ofPath: serverPath ?? settings.rootPath) + rest, caseInsensitive: !capabilities.names.caseSensitive)
    }
}
