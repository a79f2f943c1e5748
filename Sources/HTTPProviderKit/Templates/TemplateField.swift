import ProviderAPI
/// One name and value template: a query parameter, a header, or a form field of a ``RequestTemplate``.
///
/// In JSON or a property list a list of fields is written either as an array, which keeps its order —
/// `[{"name": "pageSize", "value": "{size}"}]` or `[["pageSize", "{size}"]]` — or as an object,
/// whose entries are then sorted by name, since neither format keeps an object's order.
public struct TemplateField: Codable, Sendable, Hashable {
    /// The name; placeholders are allowed in query and form names, not in header names.
    public var name: String
    /// The value template.
    public var value: String

    /// Creates a field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case name, value
    }

    /// Decodes `{"name": …, "value": …}` or `[name, value]`.
    public init(from decoder: any Decoder) throws {
        if var pair = try? decoder.unkeyedContainer() {
            name = try pair.decode(String.self)
            value = try pair.decode(String.self)
            guard pair.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: pair, debugDescription: "a field pair has two elements")
            }
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        value = try container.decode(String.self, forKey: .value)
    }

    /// Encodes `{"name": …, "value": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
    }

    /// Decodes a list of fields written as an array (ordered) or an object (sorted by name).
    static func decodeList<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> [TemplateField] {
        guard container.contains(key) else { return [] }
        if let list = try? container.decode([TemplateField].self, forKey: key) { return list }
        let object = try container.decode([String: String].self, forKey: key)
        return object.sorted { $0.key < $1.key }.map { TemplateField($0.key, $0.value) }
    }
}
