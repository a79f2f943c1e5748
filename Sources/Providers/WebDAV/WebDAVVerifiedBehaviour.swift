import Foundation
import ProviderAPI

/// What a WebDAV server was seen to do when Strata wrote on it, as found by
/// ``WebDAVCapabilityVerifier``.
///
/// Each field is `nil` until it was verified. A server's `Server` header only chooses the
/// starting guess of ``WebDAVServerProfile``; these verdicts replace the guess as soon as they
/// are known.
package struct WebDAVVerifiedBehaviour: Sendable, Hashable, Codable {
    /// `PUT` with `If-None-Match: *` onto an existing file is refused with 412.
    package var refusesIfNoneMatchStar: Bool?
    /// `PUT` with a stale `If-Match` is refused with 412.
    package var refusesStaleIfMatch: Bool?
    /// `PUT` with a stale RFC 4918 `If: (["etag"])` is refused with 412 (used for weak etags).
    package var refusesStaleIfHeader: Bool?
    /// `PUT` with the current etag (in the header Strata sends for it) is accepted.
    package var acceptsCurrentETag: Bool?
    /// `MKCOL` of an existing folder is refused (RFC 4918 9.3.1: 405).
    package var mkcolRefusesExisting: Bool?
    /// A `Depth: 1` `PROPFIND` lists files whose names start with a dot.
    package var listsDotFiles: Bool?
    /// `PROPFIND` reports `getetag` for files.
    package var reportsETags: Bool?
    /// `PROPFIND` reports `getcontenttype` for files.
    package var reportsContentTypes: Bool?
    /// A `PUT` cut before the end of its declared body leaves something under its name: a
    /// partial file on a new name, or old content destroyed (rclone serve writes the body
    /// straight into the target). Uploads then go through a temporary sibling and a `MOVE`.
    package var keepsPartialUploads: Bool?
    /// A `MOVE` of a folder onto an existing folder with `Overwrite: T` merges the two (lighttpd)
    /// or fails, instead of replacing the destination as RFC 4918 9.9.3 says. Where it does,
    /// the provider deletes the destination first (not atomic); where the server is shown to
    /// replace, the `MOVE`/`COPY` alone does it, and a failure loses nothing.
    package var mergesOnFolderOverwrite: Bool?
    /// A `COPY` of a folder onto an existing folder with `Overwrite: T` merges the two or fails,
    /// instead of replacing the destination (RFC 4918 9.8.4); checked as ``mergesOnFolderOverwrite``
    /// is for `MOVE`, and acted on the same way for `COPY`.
    package var copyMergesOnFolderOverwrite: Bool?
    /// The characters of ``WebDAVCapabilityVerifier/nameCharacters`` that the server refuses in a
    /// name, or stores under another name (the listing does not show exactly the name sent), on
    /// any of the routes of ``NameRoute``; `%` also when a `%41`-style escape in a name is decoded
    /// again (`a%41b` stored as `aAb`). Each is mapped by `NameEncoder`.
    package var refusedNameCharacters: Set<String>?
    /// A file name starting with a space is stored and listed exactly as sent.
    package var allowsLeadingSpace: Bool?
    /// What the server does to the Unicode normalisation of a file name.
    package var nameNormalization: NameNormalization?
    /// Whether the server tells names apart by case, and how it lists a name it folds.
    package var nameCase: NameCase?
    /// A name ending with a space is kept as sent on every route.
    package var allowsTrailingSpace: Bool?
    /// A name ending with a dot is kept as sent on every route.
    package var allowsTrailingDot: Bool?
    /// The longest name (in UTF-8 bytes, at most 255) seen kept as sent on every route.
    package var maxNameBytes: Int?
    /// The server keeps an NFD name as sent, yet a request for its NFC spelling finds it: the two
    /// spellings are one name there (`NameRules.normalizationInsensitive`).
    package var normalizationInsensitive: Bool?
    /// What each route did not keep as sent: the probe labels (a character, `%41`, `leading space`,
    /// `trailing space`, `trailing dot`, `long name`, `NFD`, `NFC`, `mixed case`), empty for a
    /// route that kept every name. The name verdicts above are the union over the routes that work:
    /// a route that lost even the plain name (`plain`: a `COPY` the server refuses whatever the
    /// name, say) tells nothing of names and is left out.
    package var namesNotKept: [NameRoute: Set<String>]?
    /// A probe file answered a bounded range (`bytes=10-19`), open ranges (`bytes=37-`, and from
    /// its last byte) and a suffix range (`bytes=-10`), each with a `206`, the right
    /// `Content-Range` and the right bytes. Only then are range and resumed downloads declared;
    /// otherwise downloads are whole files and a resume starts again from byte 0.
    package var servesRanges: Bool?
    /// What went wrong with each range that was not served right (empty when ``servesRanges``).
    package var rangeProblems: [String]?
    /// A `PUT` into a folder that does not exist succeeds and creates the missing folders
    /// (copyparty), where RFC 4918 9.7.1 answers 409: uploads then look their folder up first, so
    /// that an upload below a missing folder is `notFound`, never a new folder.
    package var putCreatesParents: Bool?

    /// A way names reach the server, each proved on its own: a file by `PUT`, a file by `PUT` of a
    /// temporary name then `MOVE` onto its name (the route of uploads on a server that keeps
    /// partial bodies, and of `move`), a file by `COPY`, a folder by `MKCOL`.
    package enum NameRoute: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
        /// `PUT` of the name.
        case put
        /// `PUT` of a temporary sibling, then `MOVE` onto the name (`Overwrite: F`).
        case move
        /// `COPY` of a file onto the name.
        case copy
        /// `MKCOL` of a folder of the name.
        case mkcol
    }

    /// What a server was seen to do with the case of names: a file written under a mixed-case
    /// name, then asked for (`PROPFIND`, depth 0) under the same name with every letter's case
    /// swapped, and listed.
    package enum NameCase: String, Sendable, Hashable, Codable {
        /// The case-swapped spelling is not found: two names differing only in case are two files.
        case sensitive
        /// The case-swapped spelling finds the file (one file for both names), and the listing shows
        /// the name as it was first sent (case-preserving, as macOS and Windows file systems).
        case insensitive
        /// The case-swapped spelling finds the file, and the listing shows the name in another
        /// spelling (the server stores names folded).
        case folded

        /// The rule declared in `NameRules.caseSensitive`.
        package var isCaseSensitive: Bool { self == .sensitive }
    }

    /// What a server was seen to do to the Unicode normalisation of names: a name written in NFD
    /// (`e` + U+0301) and one in NFC (`é` U+00E9), each listed back as sent or changed.
    package enum NameNormalization: String, Sendable, Hashable, Codable {
        /// Both come back as sent.
        case preserved
        /// The NFD name comes back in NFC.
        case nfc
        /// The NFC name comes back in NFD.
        case nfd
        /// A name is lost or comes back in neither form; declared as `NameRules.Normalization.nfc`,
        /// the closest rule (send names in NFC).
        case lost

        /// The rule declared in `NameRules`.
        package var declared: NameRules.Normalization {
            switch self {
            case .preserved: .preserved
            case .nfc, .lost: .nfc
            case .nfd: .nfd
            }
        }
    }

    /// Creates verdicts; every field not given is unverified.
    package init(
        refusesIfNoneMatchStar: Bool? = nil, refusesStaleIfMatch: Bool? = nil, refusesStaleIfHeader: Bool? = nil,
        acceptsCurrentETag: Bool? = nil, mkcolRefusesExisting: Bool? = nil, listsDotFiles: Bool? = nil,
        reportsETags: Bool? = nil, reportsContentTypes: Bool? = nil, keepsPartialUploads: Bool? = nil,
        mergesOnFolderOverwrite: Bool? = nil,
        refusedNameCharacters: Set<String>? = nil, allowsLeadingSpace: Bool? = nil, nameNormalization: NameNormalization? = nil,
        nameCase: NameCase? = nil, copyMergesOnFolderOverwrite: Bool? = nil, allowsTrailingSpace: Bool? = nil,
        allowsTrailingDot: Bool? = nil, maxNameBytes: Int? = nil, normalizationInsensitive: Bool? = nil,
        namesNotKept: [NameRoute: Set<String>]? = nil, servesRanges: Bool? = nil, rangeProblems: [String]? = nil,
        putCreatesParents: Bool? = nil
    ) {
        self.putCreatesParents = putCreatesParents
        self.nameCase = nameCase
        self.copyMergesOnFolderOverwrite = copyMergesOnFolderOverwrite
        self.allowsTrailingSpace = allowsTrailingSpace
        self.allowsTrailingDot = allowsTrailingDot
        self.maxNameBytes = maxNameBytes
        self.normalizationInsensitive = normalizationInsensitive
        self.namesNotKept = namesNotKept
        self.servesRanges = servesRanges
        self.rangeProblems = rangeProblems
        self.mergesOnFolderOverwrite = mergesOnFolderOverwrite
        self.refusesIfNoneMatchStar = refusesIfNoneMatchStar
        self.refusesStaleIfMatch = refusesStaleIfMatch
        self.refusesStaleIfHeader = refusesStaleIfHeader
        self.acceptsCurrentETag = acceptsCurrentETag
        self.mkcolRefusesExisting = mkcolRefusesExisting
        self.listsDotFiles = listsDotFiles
        self.reportsETags = reportsETags
        self.reportsContentTypes = reportsContentTypes
        self.keepsPartialUploads = keepsPartialUploads
        self.refusedNameCharacters = refusedNameCharacters
        self.allowsLeadingSpace = allowsLeadingSpace
        self.nameNormalization = nameNormalization
    }

    /// Nothing verified yet.
    package static let unverified = WebDAVVerifiedBehaviour()

    /// Encodes the verdict with ``refusedNameCharacters`` and ``namesNotKept`` sorted, so the same verdict always
    /// reads the same (`strata detect --json`, kept verdicts).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(refusesIfNoneMatchStar, forKey: .refusesIfNoneMatchStar)
        try container.encodeIfPresent(refusesStaleIfMatch, forKey: .refusesStaleIfMatch)
        try container.encodeIfPresent(refusesStaleIfHeader, forKey: .refusesStaleIfHeader)
        try container.encodeIfPresent(acceptsCurrentETag, forKey: .acceptsCurrentETag)
        try container.encodeIfPresent(mkcolRefusesExisting, forKey: .mkcolRefusesExisting)
        try container.encodeIfPresent(listsDotFiles, forKey: .listsDotFiles)
        try container.encodeIfPresent(reportsETags, forKey: .reportsETags)
        try container.encodeIfPresent(reportsContentTypes, forKey: .reportsContentTypes)
        try container.encodeIfPresent(keepsPartialUploads, forKey: .keepsPartialUploads)
        try container.encodeIfPresent(mergesOnFolderOverwrite, forKey: .mergesOnFolderOverwrite)
        try container.encodeIfPresent(refusedNameCharacters?.sorted(), forKey: .refusedNameCharacters)
        try container.encodeIfPresent(allowsLeadingSpace, forKey: .allowsLeadingSpace)
        try container.encodeIfPresent(nameNormalization, forKey: .nameNormalization)
        try container.encodeIfPresent(nameCase, forKey: .nameCase)
        try container.encodeIfPresent(copyMergesOnFolderOverwrite, forKey: .copyMergesOnFolderOverwrite)
        try container.encodeIfPresent(allowsTrailingSpace, forKey: .allowsTrailingSpace)
        try container.encodeIfPresent(allowsTrailingDot, forKey: .allowsTrailingDot)
        try container.encodeIfPresent(maxNameBytes, forKey: .maxNameBytes)
        try container.encodeIfPresent(normalizationInsensitive, forKey: .normalizationInsensitive)
        let routes = namesNotKept.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value.sorted()) }) }
        try container.encodeIfPresent(routes, forKey: .namesNotKept)
        try container.encodeIfPresent(servesRanges, forKey: .servesRanges)
        try container.encodeIfPresent(rangeProblems, forKey: .rangeProblems)
        try container.encodeIfPresent(putCreatesParents, forKey: .putCreatesParents)
    }

    /// Whether the verifier has run to the end on this server.
    package var isComplete: Bool {
        refusesIfNoneMatchStar != nil && refusesStaleIfMatch != nil && mkcolRefusesExisting != nil && listsDotFiles != nil
            && keepsPartialUploads != nil && mergesOnFolderOverwrite != nil && refusedNameCharacters != nil && allowsLeadingSpace != nil && nameNormalization != nil
            && nameCase != nil && copyMergesOnFolderOverwrite != nil && allowsTrailingSpace != nil && allowsTrailingDot != nil
            && maxNameBytes != nil && normalizationInsensitive != nil && namesNotKept != nil && servesRanges != nil
            && putCreatesParents != nil
    }

    /// Whether `If-Match` / `If` preconditions on `PUT` were shown to hold both ways: a stale
    /// etag is refused in either header and the current one is accepted; `nil` until verified.
    package var honoursPreconditions: Bool? {
        guard let stale = refusesStaleIfMatch, let staleIf = refusesStaleIfHeader, let current = acceptsCurrentETag else {
            return nil
        }
        return stale && staleIf && current && reportsETags != false
    }
}
