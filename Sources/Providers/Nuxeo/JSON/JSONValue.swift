import Foundation
import ProviderAPI

/// A JSON value tree, decoded without a schema.
///
/// Nuxeo documents carry arbitrary schema properties (`dc:title`, `file:content`, custom
/// complex types), so the adapter keeps them as a tree and reads them leniently through
/// the accessors below: a number sent as a string still reads as a number, and so on.
///
/// ```swift
/// let length = document.properties["file:content"]?["length"]?.int64Value   // "588" or 588
/// ```
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; key order is not kept.
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// The member `key` of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The string, or the text of a number or boolean; `nil` for null, arrays and objects.
    public var stringValue: String? {
        switch self {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        default: return nil
        }
    }

    /// The value as a 64-bit integer: from an integer, an integral double, or a string such as `"588"`.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value):
            guard value.isFinite, value.rounded() == value, abs(value) < 9.2e18 else { return nil }
            return Int64(value)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let value = Int64(trimmed) { return value }
            if let value = Double(trimmed) { return JSONValue.double(value).int64Value }
            return nil
        default: return nil
        }
    }

    /// The value as an `Int`, leniently (see ``int64Value``).
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The value as a `Double`, from a number or a numeric string.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// The value as a `Bool`: from a boolean, `"true"`/`"false"` (any case), or the numbers 0 and 1.
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): return value
        case .integer(let value): return value == 0 ? false : (value == 1 ? true : nil)
        case .string(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// The value as a date: an ISO-8601 string (0–9 fraction digits, `Z` or an offset) or epoch milliseconds.
    public var dateValue: Date? { NuxeoDateParser.date(from: self) }

    /// The elements of an array; `nil` otherwise.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object; `nil` otherwise.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The strings of an array of strings (other elements are skipped); `nil` if not an array.
    public var stringArrayValue: [String]? {
        arrayValue?.compactMap { element in
            if case .string(let value) = element { return value }
            return nil
        }
    }

    /// Whether the value is a scalar: string, number or boolean.
    public var isScalar: Bool {
        switch self {
        case .string, .integer, .double, .bool: return true
        default: return false
        }
    }
}
