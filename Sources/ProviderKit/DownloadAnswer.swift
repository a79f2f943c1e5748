import Foundation
import ProviderAPI

/// What a server answered to a download request, in the terms ``DownloadRequestPlan`` judges: the
/// kind of answer, the byte range it says it serves, its length and what names its content.
///
/// An HTTP adapter reads these from the status and headers (`HTTPDownloader` does it for every
/// HTTP adapter of the kit); an adapter for another protocol maps its own answers onto them.
///
/// ```swift
/// // 206 Partial Content, Content-Range: bytes 0-99/100, Content-Length: 100, ETag: "v1"
/// let answer = DownloadAnswer(.partial(ServedRange(start: 0, end: 99, total: 100)), length: 100, etag: "\"v1\"")
/// ```
public struct DownloadAnswer: Sendable, Hashable {
    /// The kind of answer.
    public enum Kind: Sendable, Hashable {
        /// The content from its first byte (HTTP `200`).
        case whole
        /// Part of the content (HTTP `206`), with the range the answer says it holds; `nil` when
        /// the answer names none or one that cannot be read.
        case partial(ServedRange?)
        /// The content has not changed since the validator the request sent (HTTP `304`).
        case notModified
        /// The range asked lies past the content (HTTP `416`), with the content's size if told.
        case rangeNotSatisfiable(total: Int64?)
        /// Another success that carries no content (another HTTP `2xx`).
        case otherSuccess
        /// A failure (any other status): the adapter's error for the answer.
        case failure
    }

    /// The kind of answer.
    public var kind: Kind
    /// The length of the body, when the answer declares it (HTTP `Content-Length`).
    public var length: Int64?
    /// The answer's entity tag, if any.
    public var etag: String?
    /// What names the answer's content, in the form the provider keeps a validator in
    /// (`ResumePoint.validator`): its entity tag, or the provider's own form; `nil` when the answer
    /// names it with nothing comparable. By default the entity tag.
    public var validator: String?
    /// Whether the answer is an error in disguise (a server that answers with an error page and a
    /// success status): it is never written into a sink.
    public var isErrorPage: Bool

    /// Creates an answer.
    public init(_ kind: Kind, length: Int64? = nil, etag: String? = nil, validator: String? = nil, isErrorPage: Bool = false) {
        self.kind = kind
        self.length = length
        self.etag = etag
        self.validator = validator ?? etag
        self.isErrorPage = isErrorPage
    }

    /// The HTTP status this kind of answer stands for, for errors; `nil` when there is none.
    var status: Int? {
        switch kind {
        case .whole: return 200
        case .partial: return 206
        case .notModified: return 304
        case .rangeNotSatisfiable: return 416
        case .otherSuccess, .failure: return nil
        }
    }
}

/// The bytes an answer says it serves: from ``start`` to ``end`` inclusive, of content of
/// ``total`` bytes when that is known (HTTP `Content-Range: bytes start-end/total`).
public struct ServedRange: Sendable, Hashable {
    /// The first byte.
    public var start: Int64
    /// The last byte, inclusive.
    public var end: Int64
    /// The size of the whole content, when the answer tells it.
    public var total: Int64?

    /// Creates a served range.
    public init(start: Int64, end: Int64, total: Int64?) {
        self.start = start
        self.end = end
        self.total = total
    }
}
