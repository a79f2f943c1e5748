import Foundation
import HostileTestServer
import NuxeoProvider
import ProviderAPI
import PydioProvider
import WebDAVProvider
import HTTPProviderKit

/// The real adapters, pointed at a hostile server through the short-deadline configuration.
extension Hostile {
    /// A WebDAV provider rooted at the server's `/`.
    static func webdav(_ server: HostileServer, _ transport: AsyncHTTPClientTransport) throws -> WebDAVProvider {
        try WebDAVProvider(configuration: configuration(server.url, transport: transport))
    }

    /// A WebDAV provider rooted at `url` (for the cases without a server: refused, unknown host).
    static func webdav(at url: URL, _ transport: AsyncHTTPClientTransport) throws -> WebDAVProvider {
        try WebDAVProvider(configuration: configuration(url, transport: transport))
    }

    /// A Nuxeo provider rooted at the repository root of the server's `/nuxeo`.
    static func nuxeo(_ server: HostileServer, _ transport: AsyncHTTPClientTransport) throws -> NuxeoProvider {
        try NuxeoProvider(configuration: configuration(server.url.appendingPathComponent("nuxeo/"), transport: transport))
    }

    /// A Pydio provider on the workspace `ws` of the server's `/pydio`.
    static func pydio(_ server: HostileServer, _ transport: AsyncHTTPClientTransport) throws -> PydioProvider {
        try PydioProvider(configuration: configuration(server.url.appendingPathComponent("pydio/ws/"), transport: transport))
    }

    /// `scheme://127.0.0.1:PORT/path` for the CLI.
    static func target(_ scheme: String, _ server: HostileServer, _ path: String) -> String {
        "\(scheme)://127.0.0.1:\(server.port)\(path)"
    }

    /// What a folder holds (names), symlinks included.
    static func contents(of folder: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }
}
