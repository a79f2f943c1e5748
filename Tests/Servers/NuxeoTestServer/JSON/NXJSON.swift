import Foundation

/// An ordered JSON value: objects keep their keys in insertion order, so the
/// server can write fields in the same order as the real Nuxeo writers.
enum NXJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([NXJSON])
    case object([(String, NXJSON)])

    static func == (lhs: NXJSON, rhs: NXJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Member lookup for objects (first match), `nil` otherwise.
    subscript(key: String) -> NXJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Element lookup for arrays.
    subscript(index: Int) -> NXJSON? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The keys of an object, in order.
    var keys: [String] {
        guard case .object(let members) = self else { return [] }
        return members.map(\.0)
    }

    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// A lenient string view: strings as-is, numbers and booleans as their text.
    var stringValue: String? {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }

    /// A lenient integer view (numbers or numeric strings).
    var intValue: Int? {
        switch self {
        case .int(let i): return Int(i)
        case .double(let d): return Int(d)
        case .string(let s): return Int(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// A lenient boolean view (`true`, `"true"`, `1`).
    var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .string(let s): return s.lowercased() == "true"
        case .int(let i): return i != 0
        default: return nil
        }
    }

    var arrayValue: [NXJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The JSON type name, used by shape comparisons.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
