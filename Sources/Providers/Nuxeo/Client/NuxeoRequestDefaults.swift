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
package struct NuxeoRequestDefaults: Sendable, Hashable {
    /// Schemas asked for; `["*"]` asks for all.
    package var schemas: [String]
    /// Document enrichers asked for on every document request.
    package var enrichers: [String]
    /// The repository (`default` on most servers).
    package var repository: String

    /// Creates defaults: every schema, no enricher, the `default` repository.
    package init(schemas: [String] = ["*"], enrichers: [String] = [], repository: String = "default") {
        self.schemas = schemas
        self.enrichers = enrichers
        self.repository = repository
    }

    /// Adds schemas to every request; adding `*` asks for all of them.
    package mutating func addDefaultSchemas(_ names: [String]) {
        schemas = Self.merge(schemas, names)
    }

    /// Adds document enrichers (categories, in the seed's words) to every request.
    package mutating func addDefaultEnrichers(_ names: [String]) {
        enrichers = Self.merge(enrichers, names)
    }

    /// The `properties` header value for a request asking for `extra` schemas too.
    package func propertiesHeader(adding extra: [String] = []) -> String {
        let all = Self.merge(schemas, extra)
        return all.contains("*") ? "*" : all.joined(separator: ",")
    }

    /// The `enrichers-document` header value for a request asking for `extra` enrichers too; `nil` when none.
    package func enrichersHeader(adding extra: [String] = []) -> String? {
        let all = Self.merge(enrichers, extra)
        return all.isEmpty ? nil : all.joined(separator: ",")
    }

    static func merge(_ base: [String], _ extra: [String]) -> [String] {
        var result = base
        for name in extra where !name.isEmpty && !result.contains(name) { result.append(name) }
        return result
    }
}
