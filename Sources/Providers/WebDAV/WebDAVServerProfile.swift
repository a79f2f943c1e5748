import Foundation
import ProviderAPI

/// What a WebDAV server is and does, as learnt by ``WebDAVProvider/connect(_:)``.
public struct WebDAVServerProfile: Sendable, Hashable {
    /// The DAV compliance classes from the `DAV` header (`1`, `2`, `3`, …).
    public var davClasses: [String]
    /// The `Server` header, if sent.
    public var server: String?
    /// Whether the server reports RFC 4331 quota.
    public var reportsQuota: Bool
    /// Whether the server honours `If-Match` and `If-None-Match` on `PUT`.
    public var honoursPreconditions: Bool
    /// Whether the server reports `getetag`.
    public var reportsETags: Bool
    /// Whether the server reports `getcontenttype` for files.
    public var reportsContentTypes: Bool

    /// Creates a profile.
    public init(
        davClasses: [String] = ["1"], server: String? = nil, reportsQuota: Bool = false,
        honoursPreconditions: Bool = true, reportsETags: Bool = true, reportsContentTypes: Bool = false
    ) {
        self.davClasses = davClasses
        self.server = server
        self.reportsQuota = reportsQuota
        self.honoursPreconditions = honoursPreconditions
        self.reportsETags = reportsETags
        self.reportsContentTypes = reportsContentTypes
    }

    /// What every RFC 4918 class 1 server can be assumed to do.
    public static let generic = WebDAVServerProfile()

    /// The capabilities this profile gives a provider.
    public var capabilities: Capabilities {
        var features: Capabilities.Features = [.paging, .rangeDownload, .resumeDownload, .move, .copy, .emptyFolders]
        if honoursPreconditions { features.formUnion([.preconditions, .exclusiveCreate]) }
        if reportsETags { features.insert(.etags) }
        if reportsQuota { features.insert(.quota) }
        if reportsContentTypes { features.insert(.mimeTypes) }
        return Capabilities(
            features: features, modifiedTimePrecision: .seconds(1),
            names: NameRules(forbiddenCharacters: [], normalization: .preserved, caseSensitive: true, maxNameBytes: 255))
    }
}

extension WebDAVProvider {
    /// Asks the server what it is: `OPTIONS` for the DAV classes and server name,
    /// a `PROPFIND` of the root for quota and etags.
    func probeProfile() async throws -> WebDAVServerProfile {
        let options = HTTPRequest(method: .OPTIONS, url: mapper.root)
        let answer = try await executor.execute(options)
        await answer.body.discard()
        if answer.status == 401 {
            throw ProviderError(.unauthorized, "the server refused the credentials", httpStatus: 401, request: options.summary)
        }
        guard let dav = answer.headers.first(name: "dav") else {
            throw ProviderError(
                .unsupported, "the server does not speak WebDAV (no DAV header on OPTIONS)", httpStatus: answer.status,
                request: options.summary)
        }
        let classes = dav.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let server = answer.headers.first(name: "server")
        let lowered = server?.lowercased() ?? ""
        let responses = try await propfind(.root, depth: "0", body: DAVRequestBodies.propfindQuota, folder: true)
        let found = responses.first?.found ?? [:]
        let quota = found[.quotaAvailable] != nil || found[.quotaUsed] != nil
        // nginx and rclone serve ignore If-Match; nginx reports no etags (notes/webdav-servers.md).
        let ignoresPreconditions = lowered.contains("nginx") || lowered.contains("rclone")
        return WebDAVServerProfile(
            davClasses: classes, server: server, reportsQuota: quota, honoursPreconditions: !ignoresPreconditions,
            reportsETags: !lowered.contains("nginx"), reportsContentTypes: lowered.contains("apache"))
    }
}
