import Foundation
import ProviderAPI

/// One public link of `load_shared_element_data`.
public struct PydioShareLink: Sendable, Hashable {
    /// The hash (the link's last path segment); a JSON number when it is all digits, read as text.
    public var hash: String
    /// The public URL.
    public var url: URL?
    /// Days after which the link expires (`expire_after`), 0 for never.
    public var expireAfterDays: Int?
    /// Whether the link has expired.
    public var isExpired: Bool
    /// Whether download is disabled (preview only).
    public var downloadDisabled: Bool

    /// Every link in a `load_shared_element_data` answer.
    public static func links(in json: JSONValue) -> [PydioShareLink] {
        guard case .object(let links)? = json["links"] else { return [] }
        return links.compactMap { key, value in
            let hash = value["hash"].flatMap { $0.stringValue } ?? key
            return PydioShareLink(
                hash: hash, url: value["public_link"]?.stringValue.flatMap(URL.init(string:)),
                expireAfterDays: value["expire_after"]?.intValue, isExpired: value["is_expired"]?.boolValue ?? false,
                downloadDisabled: value["disable_download"]?.boolValue ?? false)
        }.sorted { $0.hash < $1.hash }
    }
}
