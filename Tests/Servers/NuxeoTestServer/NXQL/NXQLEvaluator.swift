import Foundation

/// Runs a parsed query against the repository.
struct NXQLEvaluator {
    let repository: Repository

    /// Matching documents (the root excluded), sorted by `order` when given.
    func run(_ query: NXQLQuery, order override: [NXQLOrder]? = nil) -> [StoredDocument] {
        let types = Set(query.types.map { $0.lowercased() })
        let anyType = types.contains("document")
        var result = repository.documents.values.filter { doc in
            guard !doc.isRoot, anyType || types.contains(doc.type.name.lowercased()) else { return false }
            return query.filter.map { matches($0, doc) } ?? true
        }
        result.sort { $0.sequence < $1.sequence }
        let order = override ?? query.order
        return order.isEmpty ? result : SortSpec.sort(result, by: order, repository: repository)
    }

    func matches(_ expression: NXQLExpression, _ doc: StoredDocument) -> Bool {
        switch expression {
        case .and(let l, let r): return matches(l, doc) && matches(r, doc)
        case .or(let l, let r): return matches(l, doc) || matches(r, doc)
        case .not(let e): return !matches(e, doc)
        case .isNull(let property, let negated):
            let value = NXQLValue.of(property, doc, in: repository)
            let isNull: Bool
            switch value {
            case .null: isNull = true
            case .list(let items): isNull = items.isEmpty
            default: isNull = false
            }
            return isNull != negated
        case .startsWith(let property, let prefix):
            guard let text = NXQLValue.of(property, doc, in: repository).text else { return false }
            if property == "ecm:path" {
                let base = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
                return text.hasPrefix(base + "/") && text != base
            }
            return text.hasPrefix(prefix)
        case .like(let property, let pattern, let insensitive, let negated):
            let matcher = LikePattern(pattern, caseInsensitive: insensitive)
            let candidates = Self.flatten(NXQLValue.of(property, doc, in: repository)).compactMap(\.text)
            guard !candidates.isEmpty else { return false }
            let found = candidates.contains { matcher.matches(insensitive ? $0.lowercased() : $0) }
            return found != negated
        case .inList(let property, let values, let negated):
            let candidates = Self.flatten(NXQLValue.of(property, doc, in: repository))
            guard !candidates.isEmpty else { return false }
            let found = candidates.contains { candidate in values.contains { candidate.compare(to: $0) == 0 } }
            return found != negated
        case .compare(let property, let op, let literal):
            return compare(property, op, literal, doc)
        }
    }

    private func compare(_ property: String, _ op: String, _ literal: NXQLLiteral, _ doc: StoredDocument) -> Bool {
        if property == "ecm:fulltext" || property.hasPrefix("ecm:fulltext.") {
            guard case .string(let text) = literal else { return false }
            let found = FulltextMatcher(text).matches(doc, onlyTitle: property == "ecm:fulltext.dc:title")
            return op == "<>" ? !found : found
        }
        let value = NXQLValue.of(property, doc, in: repository)
        if case .list(let items) = value {
            let anyEqual = items.contains { $0.compare(to: literal) == 0 }
            switch op {
            case "=": return anyEqual
            case "<>": return !anyEqual
            default: return items.contains { Self.holds(op, $0.compare(to: literal)) }
            }
        }
        return Self.holds(op, value.compare(to: literal))
    }

    private static func holds(_ op: String, _ order: Int?) -> Bool {
        guard let order else { return false }
        switch op {
        case "=": return order == 0
        case "<>": return order != 0
        case "<": return order < 0
        case "<=": return order <= 0
        case ">": return order > 0
        case ">=": return order >= 0
        default: return false
        }
    }

    private static func flatten(_ value: NXQLValue) -> [NXQLValue] {
        switch value {
        case .null: return []
        case .list(let items): return items
        default: return [value]
        }
    }
}
