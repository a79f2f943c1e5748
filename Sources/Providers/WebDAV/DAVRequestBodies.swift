import Foundation

/// The XML bodies Strata sends.
enum DAVRequestBodies {
    /// The properties an ``ProviderAPI/Item`` needs, and nothing more.
    static let propfindItems = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/>\
        <d:getetag/><d:getcontenttype/></d:prop></d:propfind>
        """

    /// ``propfindItems`` without `getcontenttype`, for listings that need no MIME type.
    static let propfindItemsWithoutType = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/>\
        <d:getetag/></d:prop></d:propfind>
        """

    /// RFC 4331 quota of the root, plus what the capability probe looks at.
    static let propfindQuota = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/><d:quota-available-bytes/>\
        <d:quota-used-bytes/></d:prop></d:propfind>
        """

    /// Sets `getlastmodified`, for servers that accept it.
    static func proppatchModified(_ date: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:getlastmodified>\(date)</d:getlastmodified>\
        </d:prop></d:set></d:propertyupdate>
        """
    }
}
