import Foundation
import ProviderAPI
import HTTPProviderKit

/// A model that decodes one Nuxeo `entity-type`.
///
/// The built-in entities (``NuxeoDocument``, ``NuxeoDocumentList``, ``NuxeoException``, …)
/// conform to it, and so can an app's own types, which it then registers with
/// ``NuxeoEntityRegistry/register(_:)`` — the Swift form of the seed SDK's `registerEntityClass`.
///
/// ```swift
/// struct Directory: NuxeoEntityDecodable {
///     static let entityType = "directoryEntry"
///     let id: String
///     init(nuxeoJSON json: JSONValue) throws {
///         guard let id = json["properties"]?["id"]?.stringValue else {
///             throw ProviderError(.invalidResponse, "directoryEntry without id")
///         }
///         self.id = id
///     }
/// }
/// var registry = NuxeoEntityRegistry.standard
/// registry.register(Directory.self)
/// ```
package protocol NuxeoEntityDecodable: Sendable {
    /// The `entity-type` string this model decodes.
    static var entityType: String { get }
    /// Decodes the model from the entity's JSON object.
    ///
    /// - Throws: `ProviderError` `invalidResponse` when the JSON does not have the entity's shape.
    init(nuxeoJSON json: JSONValue) throws
}
