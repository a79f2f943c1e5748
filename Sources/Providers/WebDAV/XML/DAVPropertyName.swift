import Foundation
import HTTPProviderKit

/// A qualified WebDAV property name: a namespace URI and a local name. It is the name
/// `XMLByteReader` reports for an element, so a parsed property is used as it comes.
package typealias DAVPropertyName = XMLName

extension XMLName {
    static let dav = "DAV:"
    static let resourcetype = DAVPropertyName(dav, "resourcetype")
    static let getcontentlength = DAVPropertyName(dav, "getcontentlength")
    static let getlastmodified = DAVPropertyName(dav, "getlastmodified")
    static let getetag = DAVPropertyName(dav, "getetag")
    static let getcontenttype = DAVPropertyName(dav, "getcontenttype")
    static let creationdate = DAVPropertyName(dav, "creationdate")
    static let displayname = DAVPropertyName(dav, "displayname")
    static let quotaAvailable = DAVPropertyName(dav, "quota-available-bytes")
    static let quotaUsed = DAVPropertyName(dav, "quota-used-bytes")
    static let collection = DAVPropertyName(dav, "collection")
}

/// The value of one property in a multistatus answer.
package struct DAVPropertyValue: Hashable, Sendable {
    /// The text content, trimmed.
    package var text: String
    /// The names of the child elements (for `resourcetype`: `collection`, …).
    package var children: [DAVPropertyName]
    /// The trimmed text of each child element, in the order of ``children``
    /// (`oc:checksums` holds its value in an `oc:checksum` child, `oc:share-types` in `oc:share-type`s).
    package var childTexts: [String]

    /// Creates a value.
    package init(text: String, children: [DAVPropertyName] = [], childTexts: [String] = []) {
        self.text = text
        self.children = children
        self.childTexts = childTexts
    }
}

/// One `propstat` of a multistatus response.
package struct DAVPropstat: Hashable, Sendable {
    /// The HTTP status of these properties.
    package var status: Int
    /// The properties.
    package var properties: [DAVPropertyName: DAVPropertyValue]
}

/// One `response` element of a multistatus answer.
package struct DAVResponse: Hashable, Sendable {
    /// The raw `href`, as the server wrote it.
    package var href: String
    /// The response-level status, for answers without `propstat` (errors of DELETE, COPY, MOVE).
    package var status: Int?
    /// The property groups.
    package var propstats: [DAVPropstat]
    /// The `responsedescription` or error message, if any.
    package var message: String?

    /// The properties the server answered 200 for.
    package var found: [DAVPropertyName: DAVPropertyValue] {
        if propstats.count == 1, let only = propstats.first {
            return (200..<300).contains(only.status) ? only.properties : [:]
        }
        var result: [DAVPropertyName: DAVPropertyValue] = [:]
        for propstat in propstats where (200..<300).contains(propstat.status) {
            result.merge(propstat.properties) { first, _ in first }
        }
        return result
    }
}

/// One `response` of a multistatus answer as a listing reads it: what ``DAVResponse`` holds,
/// with the properties the server answered 2xx for (``DAVResponse/found``) in a short list
/// in document order instead of a dictionary per `propstat`.
package struct DAVListingEntry: Sendable {
    /// The raw `href`, as the server wrote it.
    package var href: String
    /// The response-level status, for answers without `propstat`.
    package var status: Int?
    /// The `responsedescription` or error message, if any.
    package var message: String?
    /// The properties the server answered 2xx for: the first 2xx `propstat` naming one wins.
    /// Without the item properties when ``fields`` holds them.
    package var found: [(name: DAVPropertyName, value: DAVPropertyValue)]
    /// The item properties, read as they streamed, when the parser was asked to
    /// (``MultistatusParser/init(limits:itemFields:onEntry:)``); `nil` otherwise.
    package var fields: DAVItemFields? = nil

    /// ``found`` as ``DAVResponse/found`` gives it.
    package var foundByName: [DAVPropertyName: DAVPropertyValue] {
        var result: [DAVPropertyName: DAVPropertyValue] = [:]
        for (name, value) in found { result[name] = value }
        return result
    }
}
