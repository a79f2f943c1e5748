import Foundation

/// A document field value as NXQL compares it.
enum NXQLValue: Sendable {
    case null
    case string(String)
    case number(Double)
    case date(Int64)
    case list([NXQLValue])

    /// Reads `xpath` of `doc` (system `ecm:` properties, dublincore, blob sub-fields, others).
    static func of(_ xpath: String, _ doc: StoredDocument, in repository: Repository) -> NXQLValue {
        switch xpath {
        case "ecm:uuid", "ecm:id": return .string(doc.uid)
        case "ecm:name": return .string(doc.name)
        case "ecm:path": return .string(repository.path(of: doc.uid))
        case "ecm:parentId": return doc.parentUID.map(NXQLValue.string) ?? .null
        case "ecm:ancestorId": return .list(repository.ancestors(of: doc.uid).map { .string($0.uid) })
        case "ecm:primaryType": return .string(doc.type.name)
        case "ecm:mixinType": return .list(doc.type.facets.map(NXQLValue.string))
        case "ecm:isTrashed": return .number(doc.isTrashed ? 1 : 0)
        case "ecm:isVersion", "ecm:isProxy", "ecm:isCheckedIn": return .number(0)
        case "ecm:isCheckedOut": return .number(1)
        case "ecm:currentLifeCycleState": return doc.isRoot ? .null : .string("project")
        case "ecm:changeToken": return doc.changeToken.map(NXQLValue.string) ?? .null
        case "dc:created": return doc.created.map(NXQLValue.date) ?? .null
        case "dc:modified": return doc.modified.map(NXQLValue.date) ?? .null
        case "file:content/name": return doc.blob.map { .string($0.filename) } ?? .null
        case "file:content/mime-type": return doc.blob?.mimeType.map(NXQLValue.string) ?? .null
        case "file:content/length": return doc.blob.map { .number(Double($0.length)) } ?? .null
        case "file:content/digest": return doc.blob.map { .string($0.digest) } ?? .null
        default: return from(json: doc.property(xpath.hasSuffix("/*") ? String(xpath.dropLast(2)) : xpath))
        }
    }

    static func from(json: NXJSON) -> NXQLValue {
        switch json {
        case .null, .object: return .null
        case .bool(let b): return .number(b ? 1 : 0)
        case .int(let i): return .number(Double(i))
        case .double(let d): return .number(d)
        case .string(let s): return .string(s)
        case .array(let items): return .list(items.map(from(json:)))
        }
    }

    /// Three-way comparison with a literal; `nil` when not comparable (nulls, type mismatch).
    func compare(to literal: NXQLLiteral) -> Int? {
        switch (self, literal) {
        case (.string(let a), .string(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.number(let a), .number(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.number(let a), .string(let b)):
            guard let bn = Double(b) else { return nil }
            return a < bn ? -1 : (a == bn ? 0 : 1)
        case (.string(let a), .number(let b)):
            guard let an = Double(a) else { return nil }
            return an < b ? -1 : (an == b ? 0 : 1)
        case (.date(let a), .timestamp(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.date(let a), .string(let s)):
            guard let b = DateCodec.parse(s) else { return nil }
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let s), .timestamp(let b)):
            guard let a = DateCodec.parse(s) else { return nil }
            return a < b ? -1 : (a == b ? 0 : 1)
        default: return nil
        }
    }

    /// Total order used by `ORDER BY` (nulls first).
    static func order(_ a: NXQLValue, _ b: NXQLValue) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.string(let x), .string(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.number(let x), .number(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.list(let x), .list(let y)): return order(x.first ?? .null, y.first ?? .null)
        default: return 0
        }
    }

    var text: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() ? String(Int64(n)) : String(n)
        case .date(let d): return DateCodec.w3c(d)
        default: return nil
        }
    }
}
