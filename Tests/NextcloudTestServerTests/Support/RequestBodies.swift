import Foundation

/// PROPFIND bodies the recordings' clients sent.
enum RequestBodies {
    /// A PROPFIND asking for `names` (qualified with `d:`, `oc:`, `nc:`, `ocs:`), in order.
    static func propfind(_ names: [String]) -> String {
        let props = names.map { "<\($0)/>" }.joined()
        return "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\" xmlns:oc=\"http://owncloud.org/ns\" xmlns:nc=\"http://nextcloud.org/ns\" xmlns:ocs=\"http://open-collaboration-services.org/ns\"><d:prop>\(props)</d:prop></d:propfind>"
    }

    /// The ownCloud iOS SDK's item PROPFIND (props as in the ownCloud 10 recordings).
    static let ownCloudItem = propfind([
        "d:resourcetype", "d:getlastmodified", "d:getcontentlength", "d:getcontenttype", "d:getetag",
        "d:quota-available-bytes", "d:quota-used-bytes", "oc:size", "oc:id", "oc:permissions",
    ])
}
