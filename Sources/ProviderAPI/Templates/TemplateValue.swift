import Foundation

/// A JSON-like value: an argument to a ``RequestTemplate``, a piece of a JSON body template,
/// or the result of the built-in `json` decoder.
///
/// It decodes from JSON and from property lists, and every Swift literal makes one:
///
/// ```swift
/// let doc: TemplateValue = ["uid": "a1b2", "properties": ["dc:title": "Report"], "size": 12]
/// doc["properties"]?["dc:title"]   // .string("Report")
/// ```
public enum TemplateValue: Sendable, Hashable {
    /// A string.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// JSON `null`.
    case null
    /// An ordered list.
    case array([TemplateValue])
    /// An object; JSON bodies write its keys sorted, so output is deterministic.
    case object([String: TemplateValue])

    /// The member named `key`, when this is an object that has one.
    public subscript(key: String) -> TemplateValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index`, when this is an array long enough.
    public subscript(index: Int) -> TemplateValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer (or a double with an integral value).
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int(value)
        default: return nil
        }
    }

    /// The number as a double, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [TemplateValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: TemplateValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// Makes a value from anything `Encodable`, through its JSON form, so a model object can be
    /// passed as an argument and read with property access (`%0[uid]`).
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` when the value cannot be encoded.
    public init<T: Encodable>(encoding value: T) throws {
        do {
            let data = try JSONEncoder().encode(value)
            self = try JSONDecoder().decode(TemplateValue.self, from: data)
        } catch {
            throw ProviderError(.invalidArgument, "cannot encode \(T.self) as a template value", underlying: "\(error)")
        }
    }

    /// Decodes the JSON text in `data`.
    ///
    /// - Throws: ``ProviderError/Code/invalidResponse`` when `data` is not JSON.
    public init(json data: Data) throws {
        do {
            self = try JSONDecoder().decode(TemplateValue.self, from: data)
        } catch {
            throw ProviderError(.invalidResponse, "malformed JSON", underlying: "\(error)")
        }
    }

    /// The compact JSON text of this value, with sorted keys.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` for a non-finite number.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw ProviderError(.invalidArgument, "value cannot be written as JSON", underlying: "\(error)")
        }
    }

    /// The text this value contributes where a placeholder stands in a path, query, header or text body:
    /// strings as they are, numbers in decimal, booleans as `true`/`false`, arrays as their elements
    /// joined by commas. `nil` for `null` (treated as missing) and for objects (refused).
    var text: String? {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value):
            if value.rounded() == value && abs(value) < 1e15 { return String(Int(value)) }
            return "\(value)"
        case .bool(let value): return value ? "true" : "false"
        case .null, .object: return nil
        case .array(let elements):
            var parts: [String] = []
            for element in elements {
                if case .array = element { return nil }
                guard let part = element.text else { return nil }
                parts.append(part)
            }
            return parts.joined(separator: ",")
        }
    }
}

extension TemplateValue: Codable {
    /// Decodes any JSON or property-list value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TemplateValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: TemplateValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON-like value")
        }
    }

    /// Encodes the value as the matching JSON or property-list value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array value.
    public init(arrayLiteral elements: TemplateValue...) { self = .array(elements) }
    /// An object value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
