import Foundation
import ProviderAPI
import HTTPProviderKit

/// One public link of `load_shared_element_data`.
package struct PydioShareLink: Sendable, Hashable {
    /// The hash (the link's last path segment); a JSON number when it is all digits, read as text.
    package var hash: String
    /// The public URL.
    package var url: URL?
    /// Days after which the link expires (`expire_after`), 0 for never.
    package var expireAfterDays: Int?
    /// Whether the link has expired.
    package var isExpired: Bool
    /// Whether download is disabled (preview only).
    package var downloadDisabled: Bool
    /// When the link expires, as the server writes it (`expire_time`, `2026/12/01 00:34`), for a
    /// link with an expiry.
    package var expireTime: String?
    /// Whether the link asks for a password (`has_password`).
    package var hasPassword: Bool

    /// ``expireTime`` as a date: the server writes its own local time without a zone; read as UTC.
    package var expires: Date? {
        guard let expireTime else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy/MM/dd HH:mm"
        return formatter.date(from: expireTime)
    }

    /// Every link in a `load_shared_element_data` answer.
    package static func links(in json: JSONValue) -> [PydioShareLink] {
        guard case .object(let links)? = json["links"] else { return [] }
        return links.compactMap { key, value in
            let hash = value["hash"].flatMap { $0.stringValue } ?? key
            return PydioShareLink(
                hash: hash, url: value["public_link"]?.stringValue.flatMap(URL.init(string:)),
                expireAfterDays: value["expire_after"]?.intValue, isExpired: value["is_expired"]?.boolValue ?? false,
                downloadDisabled: value["disable_download"]?.boolValue ?? false,
                expireTime: value["expire_time"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
                hasPassword: value["has_password"]?.boolValue ?? false)
        }.sorted { $0.hash < $1.hash }
    }
}
