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

    /// The `If-Range` value for a kept validator; `nil` when it cannot be sent (weak, empty).
    package static func ifRange(_ validator: String) -> String? {
        if validator.hasPrefix(datePrefix) {
            let date = String(validator.dropFirst(datePrefix.count))
            return HTTPDate.parse(date) == nil ? nil : date
        }
        if validator.isEmpty || ETag.isWeak(validator) { return nil }
        return validator
    }

    /// Whether `response`'s own validators say its content is not the one `validator` was kept
    /// for (a missing header contradicts nothing).
    package static func contradicts(_ validator: String, _ response: TransportResponse) -> Bool {
        if validator.hasPrefix(datePrefix) {
            if response.etag != nil { return true }
            guard let text = response.headers.first(name: "last-modified") else { return false }
            let kept = HTTPDate.parse(String(validator.dropFirst(datePrefix.count)))
            return kept == nil || HTTPDate.parse(text) != kept
        }
        guard let now = response.etag else { return false }
        return !ETag.weaklyEqual(now, validator)
    }
}
