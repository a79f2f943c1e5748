import Foundation

/// What one provider, talking to one server, really supports.
///
/// A provider declares its capabilities once; callers and the conformance
/// suite read them from this one place. A call outside ``features`` throws
/// ``ProviderError/Code/unsupported`` at once, without a request.
public struct Capabilities: Sendable, Hashable {
    /// The optional operations and properties a provider can have.
    public struct Features: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// Listings can be fetched page by page with a limit.
        public static let paging = Features(rawValue: 1 << 0)
        /// Downloads of a byte range.
        public static let rangeDownload = Features(rawValue: 1 << 1)
        /// An interrupted download continues where it stopped.
        public static let resumeDownload = Features(rawValue: 1 << 2)
        /// Uploads and downloads honour `If-Match`-style preconditions.
        public static let preconditions = Features(rawValue: 1 << 3)
        /// Upload with a fail-if-exists that the server enforces atomically.
        public static let exclusiveCreate = Features(rawValue: 1 << 4)
        /// Server-side move and rename.
        public static let move = Features(rawValue: 1 << 5)
        /// Server-side copy.
        public static let copy = Features(rawValue: 1 << 6)
        /// The modified time can be set by the client.
        public static let setModifiedTime = Features(rawValue: 1 << 7)
        /// Items carry an etag or change token that changes with the content.
        public static let etags = Features(rawValue: 1 << 8)
        /// Items carry content digests (see ``Capabilities/digestAlgorithms``).
        public static let digests = Features(rawValue: 1 << 9)
        /// Items carry a MIME type.
        public static let mimeTypes = Features(rawValue: 1 << 10)
        /// Items carry a stable id independent of their path.
        public static let stableIDs = Features(rawValue: 1 << 11)
        /// ``StorageProvider/search(_:page:)``.
        public static let search = Features(rawValue: 1 << 12)
        /// Search includes full text of the content.
        public static let fullTextSearch = Features(rawValue: 1 << 13)
        /// ``StorageProvider/shares(of:)``, ``StorageProvider/share(_:with:)`` and ``StorageProvider/revoke(_:)``.
        public static let shares = Features(rawValue: 1 << 14)
        /// ``StorageProvider/changes(since:)``.
        public static let changes = Features(rawValue: 1 << 15)
        /// ``StorageProvider/quota()``.
        public static let quota = Features(rawValue: 1 << 16)
        /// Folders can exist empty.
        public static let emptyFolders = Features(rawValue: 1 << 17)
        /// Items carry permissions.
        public static let permissions = Features(rawValue: 1 << 18)
        /// A folder's etag changes whenever anything below it changes, at any depth, and only
        /// then (ownCloud, Nextcloud): an unchanged folder etag means an unchanged subtree, so a
        /// cache can skip listing it again.
        public static let recursiveETags = Features(rawValue: 1 << 19)
    }

    /// The supported optional features.
    public var features: Features
    /// Digest algorithms items carry, when ``Features/digests`` is set.
    public var digestAlgorithms: Set<DigestAlgorithm>
    /// How precisely modified times are kept; `nil` if not at all.
    public var modifiedTimePrecision: Duration?
    /// The largest single upload, where the server limits it.
    public var maxUploadSize: Int64?
    /// Which kinds of share can be made.
    public var shareKinds: Set<ShareKind.Tag>
    /// How coarsely the server keeps a share's expiry: `nil` when it keeps the time asked (to the
    /// second), `.seconds(86_400)` for a server that keeps whole days. The created share's
    /// ``Share/expires`` is the server's expiry, within this of the one asked.
    public var shareExpiryGranularity: Duration?
    /// The names the server accepts and how it stores them.
    public var names: NameRules

    /// Creates a capability description.
    public init(
        features: Features, digestAlgorithms: Set<DigestAlgorithm> = [],
        modifiedTimePrecision: Duration? = .seconds(1), maxUploadSize: Int64? = nil,
        shareKinds: Set<ShareKind.Tag> = [], shareExpiryGranularity: Duration? = nil, names: NameRules = NameRules()
    ) {
        self.features = features
        self.digestAlgorithms = digestAlgorithms
        self.modifiedTimePrecision = modifiedTimePrecision
        self.maxUploadSize = maxUploadSize
        self.shareKinds = shareKinds
        self.shareExpiryGranularity = shareExpiryGranularity
        self.names = names
    }

    /// Whether every feature in `features` is supported.
    public func supports(_ features: Features) -> Bool { self.features.isSuperset(of: features) }

    /// Throws ``ProviderError/Code/unsupported`` unless `feature` is supported; `what` names what
    /// needed it in the error's message (`"revoking shares"`).
    public func require(_ feature: Features, for what: String) throws {
        guard supports(feature) else { throw ProviderError.unsupported(what) }
    }
}
