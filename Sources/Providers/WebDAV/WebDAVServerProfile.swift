import Foundation
import ProviderAPI
import HTTPProviderKit

/// What a WebDAV server is and does, as learnt by ``WebDAVProvider/connect(_:)``.
///
/// What `OPTIONS` and a `PROPFIND` of the root tell is read at connect. What needs a write
/// (whether the server refuses `If-None-Match: *` over an existing file and a stale `If-Match`,
/// whether `MKCOL` refuses an existing folder, whether dot-files are listed, which characters a
/// name may hold and how names are normalised) is verified once,
/// lazily, beside the first write, by ``WebDAVCapabilityVerifier``, and kept in ``verified``.
/// Until then, the `Server` header only chooses the starting guess of ``honoursPreconditions``;
/// an unknown server, or one that sends no `Server` header, is not assumed to honour them, and
/// any server is assumed to keep a cancelled upload's partial body, and not to serve ranges, until
/// shown otherwise. The name
/// rules of ``capabilities`` follow the verdict (refused characters, leading space, normalisation,
/// dot-files, case); until it is known they are those of a POSIX file system, except case: a
/// server not shown to tell `A.txt` from `a.txt` is declared case-insensitive, so that a transfer
/// refuses the pair as a conflict rather than write one over the other.
///
/// All five servers below keep every checked character (`\ : * ? " < > | # % ; & +`), a literal
/// `%41`, a leading and a trailing space, a trailing dot, a 255-byte name, and NFC and NFD names as
/// sent (on ext4) on every route (`PUT`, `PUT` + `MOVE`, `COPY`, `MKCOL`), find no NFD name by its
/// NFC spelling, answer bounded, open and suffix ranges right, and tell names apart by case;
/// `rclone serve webdav --vfs-case-insensitive` folds case (and lists names as first sent).
///
/// | server | verified on Debian 12 |
/// |---|---|
/// | Apache 2.4 mod_dav_fs | preconditions, exclusive create, MKCOL 405, dot-files listed, content types |
/// | sabre/dav 1.8 | preconditions, exclusive create, MKCOL 405, dot-files listed |
/// | lighttpd 1.4 mod_webdav | preconditions, exclusive create, MKCOL 405, dot-files listed, content types, merges folders on overwriting `MOVE` and `COPY` |
/// | nginx 1.22 dav-ext | no preconditions (ignored on PUT), no etags, MKCOL 405, dot-files **not** listed |
/// | rclone serve webdav 1.60 | no preconditions (If-Match ignored, `If` always 412), MKCOL 201 over a folder, dot-files listed, content types, **keeps a cut PUT's partial body** (uploads through a temporary name) |
package struct WebDAVServerProfile: Sendable, Hashable, Codable {
    /// The DAV compliance classes from the `DAV` header (`1`, `2`, `3`, …).
    package var davClasses: [String]
    /// The `Server` header, if sent.
    package var server: String?
    /// Whether the server reports RFC 4331 quota.
    package var reportsQuota: Bool
    /// The starting guess of whether the server honours `If-Match` and `If-None-Match` on `PUT`,
    /// used until ``verified`` says.
    package var honoursPreconditions: Bool
    /// Whether the server reports `getetag` (a guess until ``verified`` says).
    package var reportsETags: Bool
    /// Whether the server reports `getcontenttype` for files (a guess until ``verified`` says).
    package var reportsContentTypes: Bool
    /// The starting guess of whether a cancelled `PUT` leaves a partial file or destroys the old
    /// content, used until ``verified`` says (see ``uploadsThroughTemporary``).
    package var keepsPartialUploads: Bool
    /// The starting guess of whether the server answers range requests right, used until
    /// ``verified`` says (``WebDAVVerifiedBehaviour/servesRanges``): a profile declared by hand
    /// says so (the default), one ``WebDAVProvider/connect(_:)`` probed does not until a probe file
    /// was seen to answer its ranges.
    package var servesRanges: Bool
    /// Whether the provider verifies the server's behaviour beside its first write
    /// (``WebDAVProvider/connect(_:)`` sets it; a profile declared by hand is taken as it is).
    package var verifiesOnFirstWrite: Bool
    /// What was verified by writing on the server.
    package var verified: WebDAVVerifiedBehaviour
    /// Whether a `PROPFIND` with `Depth: infinity` was shown to list the whole tree right
    /// (`WebDAVProvider.listTree`): `true` once proven against a `Depth: 1` listing, `false` once
    /// refused or caught answering otherwise, `nil` until then. Kept with the profile.
    package var honoursDepthInfinity: Bool? = nil

    /// Creates a profile.
    package init(
        davClasses: [String] = ["1"], server: String? = nil, reportsQuota: Bool = false,
        honoursPreconditions: Bool = true, reportsETags: Bool = true, reportsContentTypes: Bool = false,
        verifiesOnFirstWrite: Bool = false, verified: WebDAVVerifiedBehaviour = .unverified, keepsPartialUploads: Bool = false,
        servesRanges: Bool = true
    ) {
        self.servesRanges = servesRanges
        self.davClasses = davClasses
        self.server = server
        self.reportsQuota = reportsQuota
        self.honoursPreconditions = honoursPreconditions
        self.reportsETags = reportsETags
        self.reportsContentTypes = reportsContentTypes
        self.verifiesOnFirstWrite = verifiesOnFirstWrite
        self.verified = verified
        self.keepsPartialUploads = keepsPartialUploads
    }

    /// Whether uploads go to a temporary sibling name first and are then moved over the final
    /// name: where the server keeps a cancelled `PUT`'s partial body (verified, else the guess),
    /// so that a cancelled or failed upload never leaves a partial file nor destroys old content.
    /// Elsewhere an upload is one `PUT`.
    package var uploadsThroughTemporary: Bool { verified.keepsPartialUploads ?? keepsPartialUploads }

    /// What every RFC 4918 class 1 server can be assumed to do.
    package static let generic = WebDAVServerProfile()

    /// The capabilities this profile gives a provider: verified behaviour where known, else the guess.
    ///
    /// Exclusive create is never declared: a refused `If-None-Match: *` shows that the server
    /// checks, not that two racing creates cannot both succeed (Apache mod_dav let both of two
    /// racing `PUT`s with `If-None-Match: *` through, in the conformance suite's race). Uploads
    /// with `.fail` and `.rename` still send `If-None-Match: *` where it is refused, and check first
    /// elsewhere.
    package var capabilities: Capabilities {
        var features: Capabilities.Features = [.paging, .move, .copy, .emptyFolders]
        // Ranges only where a probe file answered them right: else whole files, and a resume restarts.
        if verified.servesRanges ?? servesRanges { features.formUnion([.rangeDownload, .resumeDownload]) }
        let etags = verified.reportsETags ?? reportsETags
        if verified.honoursPreconditions ?? honoursPreconditions, etags { features.insert(.preconditions) }
        if etags { features.insert(.etags) }
        if reportsQuota { features.insert(.quota) }
        if verified.reportsContentTypes ?? reportsContentTypes { features.insert(.mimeTypes) }
        var names = NameRules(forbiddenCharacters: [], normalization: .preserved, caseSensitive: true, maxNameBytes: 255)
        names.allowsDotFiles = verified.listsDotFiles ?? true
        names.forbiddenCharacters = Set((verified.refusedNameCharacters ?? []).filter { $0.count == 1 }.map { Character($0) })
        names.allowsLeadingSpace = verified.allowsLeadingSpace ?? true
        names.allowsTrailingSpace = verified.allowsTrailingSpace ?? true
        names.allowsTrailingDot = verified.allowsTrailingDot ?? true
        names.maxNameBytes = verified.maxNameBytes ?? 255
        names.normalization = verified.nameNormalization?.declared ?? .preserved
        // As case: NFC and NFD spellings are told apart only where the server was shown to.
        names.normalizationInsensitive = names.normalization == .preserved && (verified.normalizationInsensitive ?? true)
        // Case-sensitivity is claimed only when shown: a server not verified yet may fold case, and
        // declaring it case-insensitive makes a transfer report names that differ only in case as
        // a conflict instead of writing one over the other.
        names.caseSensitive = verified.nameCase?.isCaseSensitive ?? false
        return Capabilities(features: features, modifiedTimePrecision: .seconds(1), names: names)
    }
}

extension WebDAVProvider {
    /// Asks the server what it is: `OPTIONS` for the DAV classes and server name,
    /// a `PROPFIND` of the root for quota and etags.
    func probeProfile() async throws -> WebDAVServerProfile {
        let options = TransportRequest(method: .OPTIONS, url: mapper.root)
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
        // Starting guesses only: the verifier replaces them beside the first write. A server
        // that sends no Server header, or one not known to honour PUT preconditions, is not
        // assumed to.
        let knownToHonour = ["apache", "lighttpd", "sabre"].contains { lowered.contains($0) }
            || answer.headers.first(name: "x-sabre-version") != nil
        let etagGuess = found[.getetag] != nil || !lowered.contains("nginx")
        return WebDAVServerProfile(
            davClasses: classes, server: server, reportsQuota: quota, honoursPreconditions: knownToHonour,
            reportsETags: etagGuess, reportsContentTypes: lowered.contains("apache") || lowered.contains("lighttpd"),
            verifiesOnFirstWrite: true, keepsPartialUploads: true, servesRanges: false)
    }
}
