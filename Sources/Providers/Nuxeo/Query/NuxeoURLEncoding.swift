import Foundation
import ProviderAPI
import HTTPProviderKit

/// Percent-encoding for Nuxeo URLs.
///
/// The servlet container decodes `+` in a query string as a space, and Foundation's
/// `URLComponents.queryItems` leaves `+` (and `&`, `=` inside values for some builders)
/// alone, so NXQL and other values are encoded here: every byte outside the RFC 3986
/// unreserved set (`A–Z a–z 0–9 - . _ ~`) becomes `%XX` of its UTF-8 encoding.
package enum NuxeoURLEncoding {
    /// A query-string name or value with everything but unreserved characters escaped (`+` → `%2B`, space → `%20`).
    package static func queryValue(_ value: String) -> String {
        PercentEncoding.formEncode(value)
    }

    /// One path segment (a document name): like ``queryValue(_:)``, so `/`, `?`, `#`, `%`, `;` are escaped.
    package static func pathSegment(_ segment: String) -> String {
        PercentEncoding.formEncode(segment)
    }

    /// An absolute repository path for `/api/v1/path{docPath}`: each segment encoded, `/` kept.
    package static func documentPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { pathSegment(String($0)) }
            .joined(separator: "/")
    }

    /// A whole query string (`query=…&pageSize=50`), names and values encoded, in the given order.
    package static func queryString(_ items: [(name: String, value: String)]) -> String {
        items.map { queryValue($0.name) + "=" + queryValue($0.value) }.joined(separator: "&")
    }
}
