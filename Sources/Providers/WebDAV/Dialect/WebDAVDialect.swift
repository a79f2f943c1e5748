import Foundation
import ProviderAPI

/// The ownCloud/Nextcloud dialect of WebDAV: where the server's own APIs live and which of
/// its extensions (checksums, chunked uploads, shares, search, trash bin) Strata may use.
///
/// A ``WebDAVProvider`` with a dialect asks for the `oc:`/`nc:` properties (file ids,
/// permissions, checksums, folder sizes, share types), sends `OC-Checksum` and `X-OC-Mtime`
/// on uploads, verifies downloads against `oc:checksums`, uploads large files in chunks
/// (Nextcloud chunking v2), shares through the OCS Share API and searches with WebDAV
/// `SEARCH`. A provider speaks it when made by ``OwnCloudProviderFactory`` (schemes `nextcloud`,
/// `owncloud`, …), with the option `dialect=nextcloud` on a `webdav` URL
/// (``WebDAVProvider/Configuration/dialect``), or when `detect` finds it from `status.php`;
/// ``Flavor`` names the server family.
///
/// ```swift
/// let cloud = try await OwnCloudProviderFactory().connect(ProviderConfiguration(
///     url: URL(string: "https://cloud.example.com/")!,
///     credentials: .appPassword(username: "ann", password: appPassword)))
/// ```
public struct WebDAVDialect: Sendable, Hashable {
    /// Which server family.
    public enum Flavor: String, Sendable, Hashable, CaseIterable {
        /// Nextcloud.
        case nextcloud
        /// ownCloud 10 (classic, PHP).
        case owncloud
    }

    /// Which server family this is.
    package var flavor: Flavor
    /// The server's root, where `status.php`, `remote.php` and `ocs/` live; ends in `/`.
    package var serverRoot: URL
    /// The user whose files the DAV root holds (`remote.php/dav/files/USER/`).
    package var user: String
    /// The server's version string from `status.php`, where read.
    package var version: String?
    /// What the server offers, from its OCS capabilities.
    package var features: OwnCloudServerFeatures
    /// Files of at least this many bytes are uploaded in chunks, where the server has chunking.
    package var chunkThreshold: Int64
    /// The size of each chunk of a chunked upload.
    package var chunkSize: Int64

    /// Creates a dialect description.
    package init(
        flavor: Flavor, serverRoot: URL, user: String, version: String? = nil,
        features: OwnCloudServerFeatures = OwnCloudServerFeatures(), chunkThreshold: Int64 = 10 << 20,
        chunkSize: Int64 = 10 << 20
    ) {
        self.flavor = flavor
        self.serverRoot = WebDAVDialect.directoryURL(serverRoot)
        self.user = user
        self.version = version
        self.features = features
        self.chunkThreshold = max(1, chunkThreshold)
        self.chunkSize = max(1, chunkSize)
    }

    /// The user's DAV root: `remote.php/dav/files/USER/`.
    package var filesRoot: URL { url("remote.php/dav/files/\(DAVPathMapper.encode(segment: user))/") }

    /// The user's upload area for chunked uploads: `remote.php/dav/uploads/USER/`.
    package var uploadsRoot: URL { url("remote.php/dav/uploads/\(DAVPathMapper.encode(segment: user))/") }

    /// The user's trash bin: `remote.php/dav/trashbin/USER/trash/` (Nextcloud) or
    /// `remote.php/dav/trash-bin/USER/` (ownCloud 10).
    package var trashRoot: URL {
        let user = DAVPathMapper.encode(segment: user)
        switch flavor {
        case .nextcloud: return url("remote.php/dav/trashbin/\(user)/trash/")
        case .owncloud: return url("remote.php/dav/trash-bin/\(user)/")
        }
    }

    /// The URL of `relative` (already percent-encoded) below the server root.
    package func url(_ relative: String) -> URL {
        URL(string: serverRoot.absoluteString + relative) ?? serverRoot
    }

    /// The provider capabilities for a server with this dialect, given what plain WebDAV found.
    package func capabilities(over base: Capabilities) -> Capabilities {
        var capabilities = base
        // Both servers propagate a change's new etag up to every folder above it (what sync clients rely on).
        capabilities.features.formUnion([.stableIDs, .permissions, .setModifiedTime, .digests, .etags, .mimeTypes, .recursiveETags])
        capabilities.digestAlgorithms = [.sha1]
        capabilities.modifiedTimePrecision = .seconds(1)
        if features.search { capabilities.features.insert(.search) }
        if features.sharing {
            capabilities.features.insert(.shares)
            var kinds: Set<ShareKind.Tag> = [.user, .group]
            if features.publicLinks { kinds.insert(.publicLink) }
            if features.emailShares { kinds.insert(.email) }
            capabilities.shareKinds = kinds
            // `expireDate` is a day: the server keeps the date, not the time.
            capabilities.shareExpiryGranularity = .seconds(86_400)
        }
        return capabilities
    }

    static func directoryURL(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        if !components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath += "/" }
        return components.url ?? url
    }
}
