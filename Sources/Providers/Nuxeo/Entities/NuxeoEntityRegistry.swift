import Foundation
import NIOCore
import ProviderAPI
import HTTPProviderKit

/// Maps `entity-type` strings to decoders, the Swift form of the seed SDK's `registerEntityClass`.
///
/// A value type: a session keeps its own registry, and registering never races.
/// ``standard`` knows `document`, `documents`, `exception`, `login`, `user`, `logEntry`,
/// `logEntries` and `acls`; anything else decodes as ``NuxeoEntity/unknown(entityType:json:)``
/// with the raw JSON kept.
///
/// ```swift
/// var registry = NuxeoEntityRegistry.standard
/// registry.register(MyWorkflowTask.self)
/// let task = try registry.decode(MyWorkflowTask.self, from: data)
/// ```
package struct NuxeoEntityRegistry: Sendable {
    /// A decoder from an entity's JSON to a ``NuxeoEntity``.
    package typealias Decoder = @Sendable (JSONValue) throws -> NuxeoEntity

    private var decoders: [String: Decoder]

    /// A registry with no entity types: everything decodes as ``NuxeoEntity/unknown(entityType:json:)``.
    package static let empty = NuxeoEntityRegistry(decoders: [:])

    /// The registry with the built-in entity types.
    package static let standard: NuxeoEntityRegistry = {
        var registry = NuxeoEntityRegistry.empty
        registry.register(entityType: NuxeoDocument.entityType) { .document(try NuxeoDocument(nuxeoJSON: $0)) }
        registry.register(entityType: NuxeoDocumentList.entityType) { .documents(try NuxeoDocumentList(nuxeoJSON: $0)) }
        registry.register(entityType: NuxeoException.entityType) { .exception(try NuxeoException(nuxeoJSON: $0)) }
        registry.register(entityType: NuxeoLogin.entityType) { .login(try NuxeoLogin(nuxeoJSON: $0)) }
        registry.register(entityType: NuxeoUser.entityType) { .user(try NuxeoUser(nuxeoJSON: $0)) }
        registry.register(entityType: NuxeoLogEntry.entityType) { .logEntry(try NuxeoLogEntry(nuxeoJSON: $0)) }
        registry.register(entityType: NuxeoLogEntryList.entityType) { .logEntries(try NuxeoLogEntryList(nuxeoJSON: $0)) }
        registry.register(entityType: NuxeoACLList.entityType) { .acls(try NuxeoACLList(nuxeoJSON: $0)) }
        return registry
    }()

    private init(decoders: [String: Decoder]) { self.decoders = decoders }

    /// The entity types this registry decodes.
    package var registeredEntityTypes: Set<String> { Set(decoders.keys) }

    /// Registers an app type for its ``NuxeoEntityDecodable/entityType``; it decodes as ``NuxeoEntity/custom(_:)``.
    /// A later registration for the same entity type replaces the earlier one, built-ins included.
    package mutating func register<T: NuxeoEntityDecodable>(_ type: T.Type) {
        register(entityType: T.entityType) { .custom(try T(nuxeoJSON: $0)) }
    }

    /// Registers a decoder closure for `entityType`, replacing any earlier one.
    package mutating func register(entityType: String, decoder: @escaping Decoder) {
        decoders[entityType] = decoder
    }

    /// A copy of this registry with `type` registered.
    package func registering<T: NuxeoEntityDecodable>(_ type: T.Type) -> NuxeoEntityRegistry {
        var copy = self
        copy.register(type)
        return copy
    }

    /// Decodes a response body.
    ///
    /// A bare JSON array (the `Audit.Query` blob) decodes as ``NuxeoEntity/logEntries(_:)`` when
    /// `logEntries` is registered; other JSON without a known `entity-type` is ``NuxeoEntity/unknown(entityType:json:)``.
    ///
    /// - Throws: `ProviderError` `invalidResponse` for malformed JSON or an entity of the wrong shape.
    package func decode(_ data: Data) throws -> NuxeoEntity {
        try decode(json: NuxeoJSON.parse(data))
    }

    /// Decodes an already parsed value (a nested entity such as `contextParameters.children`).
    package func decode(json: JSONValue) throws -> NuxeoEntity {
        let entityType = json["entity-type"]?.stringValue
        if let entityType, let decoder = decoders[entityType] {
            return try decoder(json)
        }
        if entityType == nil, case .array(let elements) = json, !elements.isEmpty,
           elements.allSatisfy({ $0["eventId"] != nil }), let decoder = decoders[NuxeoLogEntryList.entityType] {
            return try decoder(json)
        }
        return .unknown(entityType: entityType, json: json)
    }

    /// Decodes a body that must be a `T`.
    ///
    /// - Throws: the error the body describes when it is an `exception` entity (see
    ///   ``NuxeoErrorMapper``), and `invalidResponse` when it is any other entity type.
    package func decode<T: NuxeoEntityDecodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(T.self, json: NuxeoJSON.parse(data))
    }

    /// Decodes the readable bytes of a response body as a `T`, as ``decode(_:from:)-(_,Data)`` does.
    package func decode<T: NuxeoEntityDecodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        try decode(T.self, json: NuxeoJSON.parse(buffer))
    }

    private func decode<T: NuxeoEntityDecodable>(_ type: T.Type, json: JSONValue) throws -> T {
        let entityType = json["entity-type"]?.stringValue
        if entityType == NuxeoException.entityType, T.entityType != NuxeoException.entityType {
            let exception = try NuxeoException(nuxeoJSON: json)
            throw NuxeoErrorMapper.error(status: exception.status ?? 500, exception: exception)
        }
        if let entityType, entityType != T.entityType {
            throw ProviderError(
                .invalidResponse, "expected a Nuxeo \(T.entityType), got entity-type \"\(entityType)\"")
        }
        if let entityType, let decoder = decoders[entityType] {
            let entity = try decoder(json)
            if let value = entity.value(as: T.self) { return value }
        }
        return try T(nuxeoJSON: json)
    }
}

extension NuxeoEntity {
    /// The payload of this entity when it is a `T`.
    func value<T: NuxeoEntityDecodable>(as type: T.Type) -> T? {
        switch self {
        case .document(let value): return value as? T
        case .documents(let value): return value as? T
        case .exception(let value): return value as? T
        case .login(let value): return value as? T
        case .user(let value): return value as? T
        case .logEntry(let value): return value as? T
        case .logEntries(let value): return value as? T
        case .acls(let value): return value as? T
        case .custom(let value): return value as? T
        case .unknown: return nil
        }
    }
}
