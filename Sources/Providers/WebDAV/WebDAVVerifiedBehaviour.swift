import Foundation
import ProviderAPI

/// What a WebDAV server was seen to do when Strata wrote on it, as found by
/// ``WebDAVCapabilityVerifier``.
///
/// Each field is `nil` until it was verified. A server's `Server` header only chooses the
/// starting guess of ``WebDAVServerProfile``; these verdicts replace the guess as soon as they
/// are known.
public struct WebDAVVerifiedBehaviour: Sendable, Hashable, Codable {
    /// `PUT` with `If-None-Match: *` onto an existing file is refused with 412.
    public var refusesIfNoneMatchStar: Bool?
    /// `PUT` with a stale `If-Match` is refused with 412.
    public var refusesStaleIfMatch: Bool?
    /// `PUT` with a stale RFC 4918 `If: (["etag"])` is refused with 412 (used for weak etags).
    public var refusesStaleIfHeader: Bool?
    /// `PUT` with the current etag (in the header Strata sends for it) is accepted.
    public var acceptsCurrentETag: Bool?
    /// `MKCOL` of an existing folder is refused (RFC 4918 9.3.1: 405).
    public var mkcolRefusesExisting: Bool?
    /// A `Depth: 1` `PROPFIND` lists files whose names start with a dot.
    public var listsDotFiles: Bool?
    /// `PROPFIND` reports `getetag` for files.
    public var reportsETags: Bool?
    /// `PROPFIND` reports `getcontenttype` for files.
    public var reportsContentTypes: Bool?
    /// A `PUT` cut before the end of its declared body leaves something under its name: a
    /// partial file on a new name, or old content destroyed (rclone serve writes the body
    /// straight into the target). Uploads then go through a temporary sibling and a `MOVE`.
    public var keepsPartialUploads: Bool?
    /// A `MOVE` of a folder onto an existing folder with `Overwrite: T` merges the two (lighttpd)
    /// or fails, instead of replacing the destination as RFC 4918 9.9.3 says. Where it does,
    /// the provider deletes the destination first (not atomic); where the server is shown to
    /// replace, the `MOVE`/`COPY` alone does it, and a failure loses nothing.
    public var mergesOnFolderOverwrite: Bool?
    /// The characters of ``WebDAVCapabilityVerifier/nameCharacters`` that the server refuses in a
    /// file name, or stores under another name (the listing does not show exactly the name sent).
    public var refusedNameCharacters: Set<String>?
    /// A file name starting with a space is stored and listed exactly as sent.
    public var allowsLeadingSpace: Bool?
    /// What the server does to the Unicode normalisation of a file name.
    public var nameNormalization: NameNormalization?
    /// Whether the server tells names apart by case, and how it lists a name it folds.
    public var nameCase: NameCase?

    /// What a server was seen to do with the case of names: a file written under a mixed-case
    /// name, then asked for (`PROPFIND`, depth 0) under the same name with every letter's case
    /// swapped, and listed.
    public enum NameCase: String, Sendable, Hashable, Codable {
        /// The case-swapped spelling is not found: two names differing only in case are two files.
        case sensitive
        /// The case-swapped spelling finds the file (one file for both names), and the listing shows
        /// the name as it was first sent (case-preserving, as macOS and Windows file systems).
        case insensitive
        /// The case-swapped spelling finds the file, and the listing shows the name in another
        /// spelling (the server stores names folded).
        case folded

        /// The rule declared in `NameRules.caseSensitive`.
        public var isCaseSensitive: Bool { self == .sensitive }
    }

    /// What a server was seen to do to the Unicode normalisation of names: a name written in NFD
    /// (`e` + U+0301) and one in NFC (`é` U+00E9), each listed back as sent or changed.
    public enum NameNormalization: String, Sendable, Hashable, Codable {
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
        public var declared: NameRules.Normalization {
            switch self {
            case .preserved: .preserved
            case .nfc, .lost: .nfc
            case .nfd: .nfd
            }
        }
    }

    /// Creates verdicts; every field not given is unverified.
    public init(
        refusesIfNoneMatchStar: Bool? = nil, refusesStaleIfMatch: Bool? = nil, refusesStaleIfHeader: Bool? = nil,
        acceptsCurrentETag: Bool? = nil, mkcolRefusesExisting: Bool? = nil, listsDotFiles: Bool? = nil,
        reportsETags: Bool? = nil, reportsContentTypes: Bool? = nil, keepsPartialUploads: Bool? = nil,
        mergesOnFolderOverwrite: Bool? = nil,
        refusedNameCharacters: Set<String>? = nil, allowsLeadingSpace: Bool? = nil, nameNormalization: NameNormalization? = nil,
        nameCase: NameCase? = nil
    ) {
        self.nameCase = nameCase
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
    public static let unverified = WebDAVVerifiedBehaviour()

    /// Encodes the verdict with ``refusedNameCharacters`` sorted, so the same verdict always
    /// reads the same (`strata detect --json`, kept verdicts).
    public func encode(to encoder: any Encoder) throws {
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
    }

    /// Whether the verifier has run to the end on this server.
    public var isComplete: Bool {
        refusesIfNoneMatchStar != nil && refusesStaleIfMatch != nil && mkcolRefusesExisting != nil && listsDotFiles != nil
            && keepsPartialUploads != nil && mergesOnFolderOverwrite != nil && refusedNameCharacters != nil && allowsLeadingSpace != nil && nameNormalization != nil
            && nameCase != nil
    }

    /// Whether `If-Match` / `If` preconditions on `PUT` were shown to hold both ways: a stale
    /// etag is refused in either header and the current one is accepted; `nil` until verified.
    public var honoursPreconditions: Bool? {
        guard let stale = refusesStaleIfMatch, let staleIf = refusesStaleIfHeader, let current = acceptsCurrentETag else {
            return nil
        }
        return stale && staleIf && current && reportsETags != false
    }
}
