import Foundation

/// Session-wide defaults sent with every request, which each request can extend.
///
/// The Swift form of the seed SDK's `addDefaultSchemas` / `addDefaultCategory`: the schemas
/// go out in the `properties` header (`*` by default: without the header the server omits
/// `properties` entirely), the enrichers in `enrichers-document`, and the repository in
/// `X-NXRepository`.
///
/// ```swift
/// var defaults = NuxeoRequestDefaults()
/// defaults.addDefaultSchemas(["dublincore", "file"])
/// defaults.addDefaultEnrichers(["thumbnail"])
/// ```
public struct NuxeoRequestDefaults: Sendable, Hashable {
    /// Schemas asked for; `["*"]` asks for all.
    public var schemas: [String]
    /// Document enrichers asked for on every document request.
    public var enrichers: [String]
    /// The repository (`default` on most servers).
    public var repository: String

    /// Creates defaults: every schema, no enricher, the `default` repository.
    public init(schemas: [String] = ["*"], enrichers: [String] = [], repository: String = "default") {
        self.schemas = schemas
        self.enrichers = enrichers
        self.repository = repository
    }

    /// Adds schemas to every request; adding `*` asks for all of them.
    public mutating func addDefaultSchemas(_ names: [String]) {
        schemas = Self.merge(schemas, names)
    }

    /// Adds document enrichers (categories, in the seed's words) to every request.
    public mutating func addDefaultEnrichers(_ names: [String]) {
        enrichers = Self.merge(enrichers, names)
    }

    /// The `properties` header value for a request asking for `extra` schemas too.
    public func propertiesHeader(adding extra: [String] = []) -> String {
        let all = Self.merge(schemas, extra)
        return all.contains("*") ? "*" : all.joined(separator: ",")
    }

    /// The `enrichers-document` header value for a request asking for `extra` enrichers too; `nil` when none.
    public func enrichersHeader(adding extra: [String] = []) -> String? {
        let all = Self.merge(enrichers, extra)
        return all.isEmpty ? nil : all.joined(separator: ",")
    }

    static func merge(_ base: [String], _ extra: [String]) -> [String] {
        var result = base
        for name in extra where !name.isEmpty && !result.contains(name) { result.append(name) }
        return result
    }
}
