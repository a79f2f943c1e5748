import Foundation

/// A reversible mapping of names that a server refuses onto names it accepts.
///
/// As rclone's encoders do, each refused character maps to a full-width
/// look-alike (`?` → `？` U+FF1F) and a refused leading or trailing space or
/// trailing dot maps to a visible substitute (`␠` U+2420, `．` U+FF0E). A name that
/// already contains a look-alike is escaped with `‛` (U+201B) so that
/// decoding is exact.
public struct NameEncoder: Sendable {
    /// The rules of the server names are encoded for.
    public let rules: NameRules

    private static let quote: Character = "\u{201B}"
    private static let space: Character = "\u{2420}"
    private static let dot: Character = "\u{FF0E}"

    /// Creates an encoder for a server's rules.
    public init(rules: NameRules) { self.rules = rules }

    private func lookAlike(_ character: Character) -> Character? {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
            scalar.value >= 0x21, scalar.value <= 0x7E,
            let mapped = Unicode.Scalar(scalar.value + 0xFEE0)
        else { return nil }
        return Character(mapped)
    }

    private func original(of character: Character) -> Character? {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
            scalar.value >= 0xFF01, scalar.value <= 0xFF5E,
            let mapped = Unicode.Scalar(scalar.value - 0xFEE0)
        else { return nil }
        return Character(mapped)
    }

    private func isSubstitute(_ character: Character) -> Bool {
        character == NameEncoder.quote || character == NameEncoder.space || character == NameEncoder.dot
            || original(of: character).map { rules.forbiddenCharacters.contains($0) } == true
    }

    /// The name to send to the server for a user's `name`.
    public func encode(_ name: String) -> String {
        var out: [Character] = []
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if isSubstitute(character) {
                out.append(NameEncoder.quote)
                out.append(character)
            } else if rules.forbiddenCharacters.contains(character), let mapped = lookAlike(character) {
                out.append(mapped)
            } else if character == " ", index == 0, !rules.allowsLeadingSpace {
                out.append(NameEncoder.space)
            } else if character == " ", index == characters.count - 1, !rules.allowsTrailingSpace {
                out.append(NameEncoder.space)
            } else if character == ".", index == characters.count - 1, !rules.allowsTrailingDot {
                out.append(NameEncoder.dot)
            } else if character == ".", index == 0, !rules.allowsDotFiles {
                out.append(NameEncoder.dot)
            } else {
                out.append(character)
            }
        }
        return String(out)
    }

    /// The user's name for a `name` read from the server.
    public func decode(_ name: String) -> String {
        var out: [Character] = []
        let characters = Array(name)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == NameEncoder.quote, index + 1 < characters.count, isSubstitute(characters[index + 1]) {
                out.append(characters[index + 1])
                index += 2
                continue
            }
            if character == NameEncoder.space {
                out.append(" ")
            } else if character == NameEncoder.dot {
                out.append(".")
            } else if let plain = original(of: character), rules.forbiddenCharacters.contains(plain) {
                out.append(plain)
            } else {
                out.append(character)
            }
            index += 1
        }
        return String(out)
    }
}
