import Foundation

/// What a request asks the document writer for: schemas (`properties` and
/// aliases) and enrichers (`enrichers-document` and aliases), from headers or
/// query parameters.
struct RenderOptions: Sendable {
    enum Schemas: Sendable, Equatable {
        /// No `properties` asked: the `properties` object is omitted (10.10).
        case omitted
        case all
        case some(Set<String>)
    }

    var schemas: Schemas = .omitted
    var enrichers: Set<String> = []

    init() {}

    init(_ request: ServerRequest) {
        var schemaValues: [String] = []
        var enricherValues: [String] = []
        let pairs = request.headers.map { ($0.name, $0.value) } + request.query.map { ($0.name, $0.value) }
        for (name, value) in pairs {
            switch Self.canonical(name) {
            case "properties", "documentproperties": schemaValues.append(value)
            case "enrichers-document", "context-category": enricherValues.append(value)
            default: break
            }
        }
        let schemaList = Self.split(schemaValues)
        if schemaList.contains("*") {
            schemas = .all
        } else if !schemaList.isEmpty {
            schemas = .some(Set(schemaList))
        } else if !schemaValues.isEmpty {
            schemas = .some([])
        }
        enrichers = Set(Self.split(enricherValues))
    }

    /// Lowercased, `X-NX` prefix dropped, `.` and `_` turned into `-`.
    static func canonical(_ name: String) -> String {
        var n = name.lowercased()
        if n.hasPrefix("x-nx") { n.removeFirst(4) }
        return n.replacingOccurrences(of: ".", with: "-").replacingOccurrences(of: "_", with: "-")
    }

    private static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func includes(schema: String) -> Bool {
        switch schemas {
        case .omitted: return false
        case .all: return true
        case .some(let set): return set.contains(schema)
        }
    }
}
