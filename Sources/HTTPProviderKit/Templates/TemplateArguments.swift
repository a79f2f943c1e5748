import ProviderAPI
/// The values a ``RequestTemplate``'s placeholders are filled from: positional ones for `%0`, `%1`
/// (or `{0}`), named ones for `{name}`.
///
/// ```swift
/// let arguments = TemplateArguments(["Document.Move"], named: ["uid": "a1b2", "doc": document])
/// let byName: TemplateArguments = ["uid": "a1b2"]
/// let byPosition: TemplateArguments = ["a1b2", 2]
/// ```
public struct TemplateArguments: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// The values for `%0`, `%1`, … in order.
    package var positional: [JSONValue]
    /// The values for `{name}` placeholders.
    package var named: [String: JSONValue]

    /// No arguments.
    public init() {
        positional = []
        named = [:]
    }

    /// Creates arguments from positional and named values.
    public init(_ positional: [JSONValue], named: [String: JSONValue] = [:]) {
        self.positional = positional
        self.named = named
    }

    /// Creates named arguments.
    public init(named: [String: JSONValue]) {
        self.init([], named: named)
    }

    /// Positional arguments only.
    public init(arrayLiteral elements: JSONValue...) {
        self.init(elements)
    }

    /// Named arguments only; a repeated name keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init([], named: Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// No arguments.
    public static var none: TemplateArguments { TemplateArguments() }

    /// The named argument `name`.
    package subscript(name: String) -> JSONValue? {
        get { named[name] }
        set { named[name] = newValue }
    }

    /// The positional argument at `index`, when there is one.
    package subscript(index: Int) -> JSONValue? {
        positional.indices.contains(index) ? positional[index] : nil
    }

    /// The value a placeholder reference points at, following its property path; `nil` when any step is missing.
    func resolve(_ reference: TemplateReference) -> JSONValue? {
        var value: JSONValue?
        switch reference.root {
        case .index(let index): value = self[index]
        case .name(let name): value = named[name]
        }
        for property in reference.properties {
            guard let current = value else { return nil }
            switch current {
            case .object(let members): value = members[property]
            case .array(let elements):
                guard let index = Int(property), elements.indices.contains(index) else { return nil }
                value = elements[index]
            default: return nil
            }
        }
        return value
    }
}
