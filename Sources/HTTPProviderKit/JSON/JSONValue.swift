import Foundation
import ProviderAPI

/// A JSON value tree, decoded without a schema: arguments and results of a ``RequestTemplate``,
/// and the properties of JSON APIs such as Nuxeo's that carry arbitrary schemas.
///
/// It decodes from JSON and from property lists, every Swift literal makes one, and its
/// accessors read leniently, because servers send numbers as strings and the like:
///
/// ```swift
/// let doc: JSONValue = ["uid": "a1b2", "properties": ["dc:title": "Report", "length": "588"]]
/// doc["properties"]?["length"]?.int64Value   // 588
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

    /// Decodes any JSON or property-list value.
    ///
    /// Strings, objects and arrays are tried first, then booleans, integers and doubles: JSON and
    /// property-list decoders never convert one of these kinds into another, so the order only
    /// saves the thrown errors of the failed tries (a string used to cost three). Raw JSON bytes
    /// read faster still through ``init(json:)`` (`JSONByteReader`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the matching JSON or property-list value.
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

    /// `text` without the `.whitespaces` at its ends: through Foundation (an NSString round trip,
    /// most of a Nuxeo listing's numbers) only when an end may be white space, since the only
    /// ASCII members of `.whitespaces` are space and tab.
    static func trimmingSpaces(_ text: String) -> String {
        func mayBeSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte >= 0x80 }
        guard text.utf8.first.map(mayBeSpace) ?? false || text.utf8.last.map(mayBeSpace) ?? false else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The value as a 64-bit integer: from an integer, an integral double, or a string such as `"588"`.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value):
            guard value.isFinite, value.rounded() == value, abs(value) < 9.2e18 else { return nil }
            return Int64(value)
        case .string(let text):
            let trimmed = Self.trimmingSpaces(text)
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
        case .string(let text): return Double(Self.trimmingSpaces(text))
        default: return nil
        }
    }

    /// The value as a `Bool`: from a boolean, `"true"`/`"false"` (any case), or the numbers 0 and 1.
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): return value
        case .integer(let value): return value == 0 ? false : (value == 1 ? true : nil)
        case .string(let text):
            switch Self.trimmingSpaces(text).lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        default: return nil
        }
    }

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
    package var isScalar: Bool {
        switch self {
        case .string, .integer, .double, .bool: return true
        default: return false
        }
    }
}

extension JSONValue {
    /// Makes a value from anything `Encodable`, through its JSON form, so a model object can be
    /// passed as an argument and read with property access (`%0[uid]`).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when the value cannot be encoded.
    public init<T: Encodable>(encoding value: T) throws {
        do {
            let data = try JSONEncoder().encode(value)
            self = try JSONByteReader.value(from: data)
        } catch {
            throw ProviderError(.invalidArgument, "cannot encode \(T.self) as a JSON value", underlying: "\(error)")
        }
    }

    /// Decodes the JSON text in `data` with `JSONByteReader`.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` (`malformed JSON at byte N: …`) when
    ///   `data` is not one well-formed JSON value in UTF-8.
    public init(json data: Data) throws {
        self = try JSONByteReader.value(from: data)
    }

    /// The compact JSON text of this value, with sorted keys.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a non-finite number.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw ProviderError(.invalidArgument, "value cannot be written as JSON", underlying: "\(error)")
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .integer(Int64(value)) }
    /// A floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
