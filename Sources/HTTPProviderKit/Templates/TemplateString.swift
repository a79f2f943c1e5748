import ProviderAPI
/// Where a placeholder's value comes from: a positional or named argument, then a property path.
struct TemplateReference: Hashable, Sendable, CustomStringConvertible {
    enum Root: Hashable, Sendable {
        case index(Int)
        case name(String)
    }
    var root: Root
    var properties: [String]

    var description: String {
        let head: String
        switch root {
        case .index(let index): head = "%\(index)"
        case .name(let name): head = name
        }
        return head + properties.map { "[\($0)]" }.joined()
    }
}

/// One placeholder in a template string.
struct TemplatePlaceholder: Hashable, Sendable {
    var reference: TemplateReference
    /// `{name?}`: empty (or left out) when missing rather than an error.
    var isOptional: Bool
    /// `{name*}`: in a path, the value is a path whose `/` are kept and whose segments are each encoded.
    var isPath: Bool
}

/// A template string parsed into literal text and placeholders.
///
/// Syntax:
/// - `{name}`, `{0}` — a named or positional argument; `{doc[uid]}`, `{doc[file:content][name]}` — property access
///   (an integer property indexes an array);
/// - suffixes `?` (optional) and `*` (a path that keeps its slashes), in either order: `{path*}`, `{page?}`;
/// - `%0`, `%1[property]` — Nemo Connect's positional form, always required;
/// - `{{`, `}}` and `%%` — a literal `{`, `}` and `%`.
struct TemplateString: Hashable, Sendable {
    enum Part: Hashable, Sendable {
        case literal(String)
        case placeholder(TemplatePlaceholder)
    }
    var parts: [Part]

    init(parts: [Part]) { self.parts = parts }

    /// Parses `source`.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` for a malformed placeholder.
    init(parsing source: String) throws {
        var parts: [Part] = []
        var literal = ""
        let characters = Array(source)
        var index = 0
        func fail(_ why: String) -> ProviderError {
            ProviderError(.invalidArgument, "malformed template \"\(source)\": \(why)")
        }
        func flush() {
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
        }
        // Reads `[property]` groups starting at `index`.
        func readProperties() throws -> [String] {
            var properties: [String] = []
            while index < characters.count, characters[index] == "[" {
                guard let close = characters[(index + 1)...].firstIndex(of: "]") else { throw fail("unclosed [") }
                let property = String(characters[(index + 1)..<close])
                guard !property.isEmpty, !property.contains("["), !property.contains("{"), !property.contains("}") else {
                    throw fail("bad property name \"\(property)\"")
                }
                properties.append(property)
                index = close + 1
            }
            return properties
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "{":
                if index + 1 < characters.count, characters[index + 1] == "{" {
                    literal.append("{")
                    index += 2
                    continue
                }
                index += 1
                var name = ""
                while index < characters.count, TemplateString.isNameCharacter(characters[index]) {
                    name.append(characters[index])
                    index += 1
                }
                guard !name.isEmpty else { throw fail("empty placeholder name") }
                let properties = try readProperties()
                var isOptional = false
                var isPath = false
                while index < characters.count, characters[index] == "?" || characters[index] == "*" {
                    if characters[index] == "?" { isOptional = true } else { isPath = true }
                    index += 1
                }
                guard index < characters.count, characters[index] == "}" else { throw fail("expected } after \(name)") }
                index += 1
                let root: TemplateReference.Root = name.allSatisfy(\.isASCIIDigit) ? .index(Int(name) ?? -1) : .name(name)
                if case .index(let value) = root, value < 0 { throw fail("index too large") }
                flush()
                parts.append(
                    .placeholder(
                        TemplatePlaceholder(
                            reference: TemplateReference(root: root, properties: properties), isOptional: isOptional,
                            isPath: isPath)))
            case "}":
                // `}}` is a literal `}`; a lone `}` is tolerated as itself.
                literal.append("}")
                index += (index + 1 < characters.count && characters[index + 1] == "}") ? 2 : 1
            case "%":
                guard index + 1 < characters.count else { throw fail("a literal % is written %%") }
                if characters[index + 1] == "%" {
                    literal.append("%")
                    index += 2
                    continue
                }
                index += 1
                var digits = ""
                while index < characters.count, characters[index].isASCIIDigit {
                    digits.append(characters[index])
                    index += 1
                }
                guard let position = Int(digits) else { throw fail("a literal % is written %%") }
                let properties = try readProperties()
                flush()
                parts.append(
                    .placeholder(
                        TemplatePlaceholder(
                            reference: TemplateReference(root: .index(position), properties: properties),
                            isOptional: false, isPath: false)))
            default:
                literal.append(character)
                index += 1
            }
        }
        flush()
        self.parts = parts
    }

    static func isNameCharacter(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
            || character == ":" || character == "@" || character == "$"
    }

    /// The placeholders, in order.
    var placeholders: [TemplatePlaceholder] {
        parts.compactMap {
            if case .placeholder(let placeholder) = $0 { return placeholder }
            return nil
        }
    }

    /// The single placeholder, when the string is exactly one placeholder and nothing else.
    var soloPlaceholder: TemplatePlaceholder? {
        if parts.count == 1, case .placeholder(let placeholder) = parts[0] { return placeholder }
        return nil
    }

    /// Splits at each occurrence of `separator` in literal text (never inside a placeholder).
    func split(separator: Character, maxSplits: Int = Int.max) -> [TemplateString] {
        var pieces: [TemplateString] = []
        var current: [Part] = []
        var splits = 0
        for part in parts {
            guard case .literal(let text) = part, splits < maxSplits, text.contains(separator) else {
                current.append(part)
                continue
            }
            var buffer = ""
            for character in text {
                if character == separator && splits < maxSplits {
                    if !buffer.isEmpty { current.append(.literal(buffer)) }
                    pieces.append(TemplateString(parts: current))
                    current = []
                    buffer = ""
                    splits += 1
                } else {
                    buffer.append(character)
                }
            }
            if !buffer.isEmpty { current.append(.literal(buffer)) }
        }
        pieces.append(TemplateString(parts: current))
        return pieces
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
