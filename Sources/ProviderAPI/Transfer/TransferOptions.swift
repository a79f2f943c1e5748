import Foundation

/// A byte range of a download.
public enum ByteRange: Sendable, Hashable {
    /// Bytes `lower...upper`, both inclusive.
    case bytes(ClosedRange<Int64>)
    /// From `offset` to the end.
    case from(Int64)
    /// The last `count` bytes.
    case suffix(Int64)

    /// The value of an HTTP `Range` header.
    package var httpHeaderValue: String {
        switch self {
        case .bytes(let range): return "bytes=\(range.lowerBound)-\(range.upperBound)"
        case .from(let offset): return "bytes=\(offset)-"
        case .suffix(let count): return "bytes=-\(count)"
        }
    }
}

/// Options of a download.
public struct DownloadOptions: Sendable {
    /// Only this part of the content.
    public var range: ByteRange?
    /// Continue a download that a resumable sink holds part of, if the content is still the one
    /// those bytes came from (their `ResumePoint/validator`, checked by the server or the adapter);
    /// partial bytes without a validator, or of other content, are dropped and the file is
    /// downloaded from its start. Never a splice of two contents.
    public var resume: Bool
    /// Download only if the item still has this etag; else ``ProviderError/Code/preconditionFailed``.
    public var ifMatch: String?
    /// Skip the body if the item still has this etag (the result says ``DownloadResult/notModified``).
    public var ifNoneMatch: String?
    /// Check the content against the digests the server declares, where it declares any.
    public var verifyDigest: Bool
    /// Receives progress.
    public var progress: ProgressHandler?
    /// How many times a download whose body is cut (a dropped connection, a stall, a body that
    /// ends before the size the server or the provider declared) is continued automatically with
    /// a `Range` request, within the same call. Only done when the server has shown that it
    /// serves ranges (a `206`, or `Accept-Ranges: bytes`) and the content has a strong validator,
    /// sent as `If-Range`: a strong etag or, without any etag, a `Last-Modified` date at least a
    /// second older than the answer (a known size alone is not enough: a file rewritten at the same
    /// size would be spliced); each continuation must answer `206` from exactly the byte reached.
    /// `0` turns it off. The default is 3.
    public var maxResumes: Int

    /// Creates download options.
    public init(
        range: ByteRange? = nil, resume: Bool = false, ifMatch: String? = nil, ifNoneMatch: String? = nil,
        verifyDigest: Bool = true, progress: ProgressHandler? = nil, maxResumes: Int = 3
    ) {
        self.range = range
        self.resume = resume
        self.ifMatch = ifMatch
        self.ifNoneMatch = ifNoneMatch
        self.verifyDigest = verifyDigest
        self.progress = progress
        self.maxResumes = maxResumes
    }
}

/// What a download did.
public struct DownloadResult: Sendable {
    /// The item as the server described it when answering.
    public var item: Item
    /// `true` when `ifNoneMatch` matched and no body was sent.
    public var notModified: Bool
    /// Body bytes received in this call (not counting bytes a resumed sink already had).
    public var bytesReceived: Int64
    /// Where the received bytes start in the content.
    public var offset: Int64

    /// Creates a result.
    public init(item: Item, notModified: Bool = false, bytesReceived: Int64, offset: Int64 = 0) {
        self.item = item
        self.notModified = notModified
        self.bytesReceived = bytesReceived
        self.offset = offset
    }
}

/// What an upload does when the target name is taken.
public enum ConflictPolicy: String, Sendable, Hashable, Codable {
    /// Fail with ``ProviderError/Code/alreadyExists``.
    case fail
    /// Replace the existing file.
    case overwrite
    /// Pick a free name such as `name (1).ext`.
    case rename
}

/// Options of an upload.
public struct UploadOptions: Sendable {
    /// What to do when the name is taken.
    public var conflict: ConflictPolicy
    /// Replace only if the existing file still has this etag; else ``ProviderError/Code/preconditionFailed``.
    public var ifMatch: String?
    /// The modified time to give the file, where the provider can set it.
    public var modified: Date?
    /// The MIME type to declare.
    public var mimeType: String?
    /// Receives progress.
    public var progress: ProgressHandler?
    /// Whether the returned item is read back from the server after the upload (its etag,
    /// modified time and type as the server stored them). Without it, adapters that need a
    /// second request for that (WebDAV's `PROPFIND` after `PUT`) return what the upload itself
    /// told: the path, the size sent and any etag the answer carried; bulk uploads that do not
    /// look at the items save one request per file.
    public var readBack: Bool
    /// Names the content, so that an upload cut off part way can be resumed by a later upload of
    /// the same content to the same place: the caller's fingerprint of the source (for a file
    /// copied from a server, its account, path, size and etag or modified time). An adapter that
    /// uploads in chunks and finds an ``UploadCheckpoints`` store in its services records its
    /// upload session under the destination and this key, and a later upload with the same key
    /// sends only what the server does not hold yet. `nil` (the default) resumes nothing. Two
    /// different contents must never share a key.
    public var resumeKey: String?

    /// Creates upload options.
    public init(
        conflict: ConflictPolicy = .overwrite, ifMatch: String? = nil, modified: Date? = nil,
        mimeType: String? = nil, progress: ProgressHandler? = nil, readBack: Bool = true, resumeKey: String? = nil
    ) {
        self.resumeKey = resumeKey
        self.conflict = conflict
        self.ifMatch = ifMatch
        self.modified = modified
        self.mimeType = mimeType
        self.progress = progress
        self.readBack = readBack
    }
}

/// Options of a server-side move or copy.
public struct TransferOptions: Sendable, Hashable {
    /// Replace an existing target; else the call fails with ``ProviderError/Code/alreadyExists``.
    public var overwrite: Bool

    /// Creates options.
    public init(overwrite: Bool = false) { self.overwrite = overwrite }
}
