import Foundation
import ProviderAPI
import HTTPProviderKit

/// What a ``NuxeoProvider`` works with, resolved from its `ProviderConfiguration` (the URL and
/// credentials) and its ``NuxeoProvider/Configuration``.
///
/// The URL is `http(s)://host[:port]/<context path>/<root document path>`, such as
/// `https://demo.example.com/nuxeo/default-domain/workspaces/Reports`; the context path is the
/// first segment of the URL's path unless ``NuxeoProvider/Configuration/contextPath`` (the
/// `contextPath` option) says otherwise (`/` for none). The options, their meaning and their
/// defaults are listed with ``NuxeoProvider/Configuration``:
///
/// | option | meaning | default |
/// |---|---|---|
/// | `contextPath` | the web application's path | the URL's first segment |
/// | `repository` | the repository, sent as `X-NXRepository` | `default` |
/// | `auth` | `basic`, or `token` to acquire an `X-Authentication-Token` with the password | `basic` |
/// | `application`, `deviceId`, `deviceDescription`, `permission` | the token request | `Strata`, stable id, host name, `rw` |
/// | `schemas` | comma list for the `properties` header | `*` |
/// | `enrichers` | comma list of document enrichers for every request | none |
/// | `chunkSize` | bytes per chunk of a chunked upload; larger files are sent in chunks | 8 MiB |
/// | `delete` | `permanent`, or `trash` to move deleted documents to the trash | `permanent` |
/// | `pageSize` | page size when listing everything | 1000 |
/// | `maxPages`, `maxEntries` | ceilings of every page loop (`PageLimits`) | 100000, 10000000 |
/// | `changes` | `drive` (Nuxeo Drive's change summary, registering the root as a synchronization root), `query` (a `dc:modified` query), or `auto`: Drive when the server has it and the root is already a synchronization root | `auto` |
///
/// Any other option name fails with `ProviderError.Code.invalidArgument`.
package struct NuxeoProviderSettings: Sendable, Hashable {
    /// The server URL with its context path, such as `https://host/nuxeo`.
    package var baseURL: URL
    /// The provider root as an absolute repository path, such as `/default-domain/workspaces/Reports`.
    package var rootPath: String
    /// Headers for every request.
    package var defaults: NuxeoRequestDefaults
    /// Whether to acquire and send a token instead of the password.
    package var usesTokenAuthentication: Bool
    /// The token request, when tokens are used.
    package var tokenRequest: NuxeoTokenRequest
    /// Bytes per chunk; files larger than this go in chunks.
    package var chunkSize: Int
    /// Whether ``NuxeoProvider/delete(_:)`` trashes instead of deleting.
    package var deleteMovesToTrash: Bool
    /// Page size when a listing has no limit.
    package var pageSize: Int
    /// Where ``NuxeoProvider/changes(since:)`` reads changes from.
    package var changeFeed: NuxeoChangeFeed

    /// Reads the settings from `configuration`, its string options read as the factory reads them.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not http(s) or an option
    ///   that is malformed or unknown.
    package init(_ configuration: ProviderConfiguration) throws {
        let (common, nuxeo) = try NuxeoProvider.reading(configuration)
        try self.init(common, nuxeo: nuxeo)
    }

    /// Resolves the settings from the URL and credentials of `configuration` and from `nuxeo`
    /// (`configuration`'s string options are not read).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not http(s), or one whose
    ///   path does not start with the context path.
    package init(_ configuration: ProviderConfiguration, nuxeo: NuxeoProvider.Configuration) throws {
        let split = try ApplicationURL(
            configuration.url, applicationPath: nuxeo.contextPath, expected: "a Nuxeo URL is http(s)://host/nuxeo/path")
        baseURL = try split.url(trailingSlash: false)
        rootPath = "/" + split.remainder.joined(separator: "/")
        defaults = NuxeoRequestDefaults(schemas: nuxeo.schemas, enrichers: nuxeo.enrichers, repository: nuxeo.repository)
        usesTokenAuthentication = nuxeo.authentication == .token
        tokenRequest = NuxeoTokenRequest(
            application: nuxeo.tokenApplication, deviceId: nuxeo.tokenDeviceId, deviceDescription: nuxeo.tokenDeviceDescription,
            permission: nuxeo.tokenPermission, user: configuration.credentials.username)
        chunkSize = max(1024, nuxeo.chunkSize)
        pageSize = max(1, nuxeo.pageSize)
        changeFeed = nuxeo.changeFeed
        deleteMovesToTrash = nuxeo.deletion == .trash
    }
}

/// Where a ``NuxeoProvider`` reads its change feed from.
public enum NuxeoChangeFeed: String, Sendable, Hashable, CaseIterable {
    /// Nuxeo Drive's change summary when the server has the Drive add-on and the root is a
    /// synchronization root; otherwise a `dc:modified` query.
    case auto
    /// Nuxeo Drive's change summary; the root is registered as a synchronization root.
    case drive
    /// A `dc:modified` query under the root.
    case query
}
