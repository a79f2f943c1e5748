import Foundation
import ProviderAPI
import HTTPProviderKit

/// The body of a document create (`POST`) or update (`PUT`): only the fields the REST API reads.
///
/// A create sends `entity-type`, `name`, `type` and `properties`. An update sends
/// `entity-type`, `uid`, `changeToken` and only the changed `properties`: the server attaches
/// the change token only when `uid` is present, and a stale token is then a 409 `conflict`.
/// A `null` property value clears that property (`"file:content": null` removes the blob).
///
/// ```swift
/// let body = try NuxeoDocumentDraft.update(of: document, properties: ["dc:title": .string("New")]).encoded()
/// ```
package struct NuxeoDocumentDraft: Sendable, Hashable {
    /// The path segment to create (the server may trim, truncate or suffix it); create only.
    package var name: String?
    /// The document type (`File`, `Folder`, `Workspace`); create only.
    package var type: String?
    /// The document being updated; update only.
    package var uid: String?
    /// The change token read with the document, for optimistic locking; update only.
    package var changeToken: String?
    /// The properties to set, by xpath.
    package var properties: [String: JSONValue]

    /// Creates a draft from its parts.
    package init(
        name: String? = nil, type: String? = nil, uid: String? = nil, changeToken: String? = nil,
        properties: [String: JSONValue] = [:]
    ) {
        self.name = name
        self.type = type
        self.uid = uid
        self.changeToken = changeToken
        self.properties = properties
    }

    /// A draft that creates a child document.
    package static func create(name: String, type: String, properties: [String: JSONValue] = [:]) -> NuxeoDocumentDraft {
        NuxeoDocumentDraft(name: name, type: type, properties: properties)
    }

    /// A draft that updates `document` with `properties`, guarded by the document's change token.
    package static func update(of document: NuxeoDocument, properties: [String: JSONValue]) -> NuxeoDocumentDraft {
        NuxeoDocumentDraft(uid: document.uid, changeToken: document.changeToken, properties: properties)
    }

    /// The JSON object the API expects; absent fields are left out, never sent as null.
    package var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["entity-type": .string(NuxeoDocument.entityType)]
        if let name { members["name"] = .string(name) }
        if let type { members["type"] = .string(type) }
        if let uid { members["uid"] = .string(uid) }
        if let changeToken { members["changeToken"] = .string(changeToken) }
        members["properties"] = .object(properties)
        return .object(members)
    }

    /// The JSON body, with sorted keys.
    package func encoded() throws -> Data {
        try NuxeoJSON.encode(jsonValue)
    }

    /// Reads a draft back from a body (what a server, or the loopback test server, receives).
    ///
    /// - Throws: `ProviderError` `invalidResponse` for a body that is not a document object.
    package init(nuxeoJSON json: JSONValue) throws {
        let entity = "document body"
        let members = try json.entityMembers(entity)
        if let type = members["entity-type"]?.stringValue, type != NuxeoDocument.entityType {
            throw ProviderError(.invalidResponse, "a document body must have entity-type \"document\", not \"\(type)\"")
        }
        self.init(
            name: try members.optionalString("name", in: entity),
            type: try members.optionalString("type", in: entity),
            uid: try members.optionalString("uid", in: entity),
            changeToken: try members.optionalString("changeToken", in: entity),
            properties: try members.optionalObject("properties", in: entity))
    }
}
