import Foundation
import ProviderAPI

extension WebDAVProvider {
    /// The folder's location: the server of the root URL (scheme, host and port; the user name
    /// plays no part), and the URL's decoded path followed by `path`.
    ///
    /// With the ownCloud/Nextcloud dialect, the user's files are one tree however the root
    /// spells them (`remote.php/webdav/` or `remote.php/dav/files/USER/`): the location is then
    /// in the namespace of that user's files, and two users of one server are compared by a
    /// probe (a folder one shares appears in the other's files).
    public func location(of path: ItemPath) async throws -> TreeLocation {
        var namespace = ""
        var top = TreeLocation.segments(ofURLPath: mapper.root.path(percentEncoded: true))
        if let dialect {
            let server = TreeLocation.segments(ofURLPath: dialect.serverRoot.path(percentEncoded: true))
            if top.starts(with: server) {
                let below = Array(top.dropFirst(server.count))
                for prefix in [["remote.php", "webdav"], ["remote.php", "dav", "files", dialect.user]] where below.starts(with: prefix) {
                    namespace = "files of \(dialect.user)"
                    top = Array(below.dropFirst(prefix.count))
                    break
                }
            }
        }
        return TreeLocation(
            server: ServerIdentity(family: "webdav", url: mapper.root), namespace: namespace, path: top + path.segments,
            caseInsensitive: !capabilities.names.caseSensitive)
    }
}
