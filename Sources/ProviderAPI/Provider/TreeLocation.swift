import Foundation

/// Where a folder of a provider lives, told whatever spelling reached it: the server that holds
/// it and its canonical absolute path there.
///
/// The transfer engine compares the locations of a copy's or a sync's two targets before it
/// writes anything, so that two saved remotes on one server, `127.0.0.1` and `localhost`, a user
/// name in one URL only, a trailing slash, a `..` or a symbolic link cannot make a tree be
/// copied into itself and then deleted. An adapter answers ``StorageProvider/location(of:)``
/// with what it knows; the default is ``unknown``, and the engine then probes with a marker
/// file. An adapter makes a location and the engine reads it: its parts are not public.
///
/// A user name is never part of a location: two users can see the same files. Where what a path
/// names depends on the user (a Nextcloud user's files), the user goes into the `namespace`, and
/// two locations in different namespaces of one server are treated as possibly one tree.
///
/// ```swift
/// public func location(of path: ItemPath) async throws -> TreeLocation {
///     TreeLocation(
///         server: ServerIdentity(family: "acme", url: baseURL),
///         namespace: repository,
///         path: TreeLocation.segments(ofURLPath: baseURL.path) + path.segments)
/// }
/// ```
public struct TreeLocation: Sendable, Hashable {
    /// One folder on the way from the server's top to the location.
    public struct Segment: Sendable, Hashable {
        /// The folder's name on the server (decoded: no percent escapes).
        package var name: String
        /// What identifies this folder on the server whatever path reaches it (the local
        /// adapter's device and inode); `nil` where unknown or where the folder does not exist.
        package var id: String?

        /// A segment named `name`, with `id` where known.
        public init(_ name: String, id: String? = nil) {
            self.name = name
            self.id = id
        }
    }

    /// The server; `nil` when the adapter cannot tell (``unknown``).
    package var server: ServerIdentity?
    /// The tree of the server in which ``path`` is spelt: empty for a server with one tree of
    /// paths (plain WebDAV, the local file system), else a repository, a workspace or a user's files.
    package var namespace: String
    /// The canonical absolute path on the server, from its top: no empty, `.` or `..` segment.
    package var path: [Segment]
    /// Whether the server folds case when it compares names (``NameRules/caseSensitive`` false).
    package var caseInsensitive: Bool

    /// A location on `server`, in `namespace`, at `path` (names, each with an id where known).
    ///
    /// - Parameters:
    ///   - server: the server; `nil` when the adapter cannot tell (then use ``unknown``).
    ///   - namespace: the tree of the server in which `path` is spelt: empty for a server with one
    ///     tree of paths (plain WebDAV, the local file system), else a repository, a workspace or
    ///     a user's files.
    ///   - path: the canonical absolute path on the server, from its top: no empty, `.` or `..`
    ///     segment (``segments(ofURLPath:)`` and ``segments(ofPath:)`` make one).
    ///   - caseInsensitive: whether the server folds case when it compares names
    ///     (``NameRules/caseSensitive`` false).
    public init(server: ServerIdentity?, namespace: String = "", path: [Segment], caseInsensitive: Bool = false) {
        self.server = server
        self.namespace = namespace
        self.path = path
        self.caseInsensitive = caseInsensitive
    }

    /// A location on `server`, in `namespace`, at the path of `names`.
    public init(server: ServerIdentity?, namespace: String = "", path names: [String], caseInsensitive: Bool = false) {
        self.init(server: server, namespace: namespace, path: names.map { Segment($0) }, caseInsensitive: caseInsensitive)
    }

    /// Nothing is known: the adapter gives no location.
    public static let unknown = TreeLocation(server: nil, path: [Segment]())

    /// Whether the adapter said where the folder is.
    package var isKnown: Bool { server != nil }

    /// The canonical segments of a URL's or a server's path: split on `/` before percent-decoding
    /// (an encoded `%2F` stays in its segment), empty and `.` segments dropped, `..` taking away
    /// the segment before it (never above the top).
    public static func segments(ofURLPath percentEncodedPath: String) -> [String] {
        var result: [String] = []
        for part in percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true) {
            let name = String(part).removingPercentEncoding ?? String(part)
            switch name {
            case ".": continue
            case "..": if !result.isEmpty { result.removeLast() }
            default: result.append(name)
            }
        }
        return result
    }

    /// The canonical segments of a plain path (not percent-encoded), as ``segments(ofURLPath:)`` does otherwise.
    public static func segments(ofPath path: String) -> [String] {
        var result: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !result.isEmpty { result.removeLast() }
            default: result.append(String(part))
            }
        }
        return result
    }
}

/// Which server a ``TreeLocation`` is on: the kind of tree, and the scheme, host and port that
/// reach it, or the server's own identity where it has one.
///
/// The transfer engine resolves the host to addresses before comparing (`127.0.0.1`,
/// `localhost` and `[::1]` are one machine), so an adapter gives the host as written.
public struct ServerIdentity: Sendable, Hashable {
    /// The kind of tree: `webdav` for every WebDAV flavour (a Nextcloud reached as plain WebDAV is
    /// the same tree), `nuxeo`, `pydio`, `local`, or a third party's name. Trees of different
    /// kinds are taken as apart.
    package var family: String
    /// `http` or `https` (`nil` for a tree reached without a network).
    package var scheme: String?
    /// The host as written, lowercased and without brackets; `nil` without a network.
    package var host: String?
    /// The port, with the scheme's default filled in.
    package var port: Int?
    /// The server's own identity where it has one (a Nextcloud instance id): two locations
    /// whose instances are both known are on one server exactly when they are equal.
    package var instance: String?

    /// An identity of its parts.
    ///
    /// - Parameters:
    ///   - family: the kind of tree: `webdav` for every WebDAV flavour (a Nextcloud reached as plain
    ///     WebDAV is the same tree), `nuxeo`, `pydio`, `local`, or a third party's name. Trees of
    ///     different kinds are taken as apart.
    ///   - scheme: `http` or `https` (`nil` for a tree reached without a network).
    ///   - host: the host as written, lowercased and without brackets; `nil` without a network.
    ///   - port: the port, with the scheme's default filled in.
    ///   - instance: the server's own identity where it has one (a Nextcloud instance id): two
    ///     locations whose instances are both known are on one server exactly when they are equal.
    public init(family: String, scheme: String? = nil, host: String? = nil, port: Int? = nil, instance: String? = nil) {
        self.family = family
        self.scheme = scheme
        self.host = host
        self.port = port
        self.instance = instance
    }

    /// The identity of the server `url` reaches: its scheme (`webdavs`, `nuxeos`, `pydios` and
    /// the like are `https`, other schemes `http`), host and port (the scheme's default when
    /// the URL has none). The user name in the URL plays no part.
    public init(family: String, url: URL, instance: String? = nil) {
        let given = url.scheme?.lowercased() ?? "http"
        let secure = given == "https" || (given != "http" && given.hasSuffix("s"))
        var host = url.host?.lowercased()
        if let bracketed = host, bracketed.hasPrefix("["), bracketed.hasSuffix("]") {
            host = String(bracketed.dropFirst().dropLast())
        }
        self.init(
            family: family, scheme: secure ? "https" : "http", host: host, port: url.port ?? (secure ? 443 : 80), instance: instance)
    }

    /// The identity of this machine's file system.
    package static let localFileSystem = ServerIdentity(family: "local")
}
