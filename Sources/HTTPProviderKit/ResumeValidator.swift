import Foundation
import ProviderAPI

/// The validator a resumable download keeps beside its partial bytes (`ResumePoint.validator`),
/// and the `If-Range` a later resume sends with it (RFC 9110 §13.1.5).
///
/// A resume is never blind: bytes are continued only under a validator the server checks.
///
/// - A strong entity tag is kept as it is and sent as `If-Range: "tag"`.
/// - Content without any entity tag keeps its `Last-Modified` date, written
///   `Last-Modified: <HTTP-date>`, and sends `If-Range: <HTTP-date>` — but only when the date is a
///   strong validator (RFC 9110 §8.8.2.2): the answer that carried it has a `Date` at least one
///   second after it. A file changed twice within one second has one date for two contents, so a
///   date from the same second as the answer is no validator.
/// - A weak entity tag is no validator (RFC 9110 forbids it in `If-Range`), and when there is a
///   weak tag a date is not used either (the rule allows a date only when there is no entity tag).
///
/// Partial bytes with no validator are of unknown origin: they are never continued (the download
/// starts over and the sink drops them). An answer to a resume that contradicts the validator (a
/// `206` whose own `ETag` or `Last-Modified` is not the one kept: a server that ignores
/// `If-Range`) is not written after them either: the download starts over.
package enum ResumeValidator {
    /// What a kept date validator starts with; an entity tag never does (it starts with `"` or `W/`).
    static let datePrefix = "Last-Modified: "

    /// The validator to keep for the content `response` carries, given the etag the provider
    /// reported for it (`expectedETag`); `nil` when there is no strong one.
    package static func of(_ response: TransportResponse, expectedETag: String?) -> String? {
        let tags = [response.etag, expectedETag].compactMap { $0 }
        if !tags.isEmpty { return tags.first { !ETag.isWeak($0) } }
        guard let text = response.headers.first(name: "last-modified"), let modified = HTTPDate.parse(text),
            let dateText = response.headers.first(name: "date"), let date = HTTPDate.parse(dateText),
            date.timeIntervalSince(modified) >= 1
        else { return nil }
        return datePrefix + text.trimmingCharacters(in: .whitespaces)
    }

    /// `point` as `DownloadRequestPlan` may judge it: a kept date that does not read as an
    /// HTTP-date cannot be sent as `If-Range`, so the bytes it was kept for have no validator
    /// (they are not continued).
    package static func readable(_ point: ResumePoint) -> ResumePoint {
        guard let validator = point.validator, validator.hasPrefix(datePrefix),
            HTTPDate.parse(String(validator.dropFirst(datePrefix.count))) == nil
        else { return point }
        return ResumePoint(length: point.length, validator: nil)
    }

    /// The `If-Range` value for a kept validator (ProviderKit's `DownloadRequestPlan` sends only
    /// strong ones): the date of a kept date, else the entity tag.
    package static func ifRange(_ validator: String) -> String {
        validator.hasPrefix(datePrefix) ? String(validator.dropFirst(datePrefix.count)) : validator
    }

    /// What names `response`'s content, in the form of the kept validator `held`, for
    /// `DownloadAnswer.validator`: its entity tag; or, when a date was kept, its `Last-Modified`
    /// date (spelled as kept when it is the same instant, however the server spells it), and its
    /// entity tag if it has one (which no date matches). `nil` when the answer names nothing
    /// comparable (a missing header contradicts nothing).
    package static func named(by response: TransportResponse, like held: String?) -> String? {
        guard let held, held.hasPrefix(datePrefix) else { return response.etag }
        if let etag = response.etag { return etag }
        guard let text = response.headers.first(name: "last-modified") else { return nil }
        let kept = HTTPDate.parse(String(held.dropFirst(datePrefix.count)))
        if let kept, HTTPDate.parse(text) == kept { return held }
        return datePrefix + text.trimmingCharacters(in: .whitespaces)
    }
}
