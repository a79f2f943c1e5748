import Foundation

/// A reversible mapping of names that a server refuses onto names it accepts.
///
/// As rclone's encoders do, each refused printable ASCII character maps to its full-width
/// look-alike (`?` → `？` U+FF1F), a refused control character to its control picture (`\n` →
/// `␊` U+240A, DEL → `␡` U+2421), and a refused leading or trailing space or dot to a visible
/// substitute (`␠` U+2420, `．` U+FF0E). A name that already holds one of these substitutes is
/// escaped with `‛` (U+201B), so that ``decode(_:)`` undoes ``encode(_:)`` exactly:
/// `decode(encode(x)) == x`, byte for byte, for every name.
///
/// The substitutes are those of what the rules refuse, and no others: under rules that refuse
/// nothing (a POSIX file system), both directions leave every name as it is, and a `．config`
/// written there is a name of its own, not an encoded `.config`. A name read from a server is
/// decoded by that server's rules (what rclone does on every read): a look-alike of a character
/// the server refuses stands for that character, whoever wrote it.
package struct NameEncoder: Sendable {
    /// The rules of the server names are encoded for.
    package let rules: NameRules

    private static let quote: Unicode.Scalar = "\u{201B}"
    private static let space: Unicode.Scalar = "\u{2420}"
    private static let dot: Unicode.Scalar = "\u{FF0E}"
    private static let delete: Unicode.Scalar = "\u{2421}"

    /// Whether a space, a dot, can be mapped by these rules: then its substitute anywhere in a
    /// name is one (escaped when it is the user's own).
    private let mapsSpace: Bool
    private let mapsDot: Bool
    /// Whether these rules map anything: else both directions are the identity.
    private let mapsAnything: Bool

    // Names are encoded scalar by scalar, not Character by Character: a refused character
    // followed by a combining mark ("?\u{301}") is one Character but still reaches the
    // server as a raw "?", so it must be mapped all the same.

    /// Creates an encoder for a server's rules.
    package init(rules: NameRules) {
        self.rules = rules
        let forbidden = rules.forbiddenCharacters
        mapsSpace = !rules.allowsLeadingSpace || !rules.allowsTrailingSpace || forbidden.contains(" ")
        mapsDot = !rules.allowsDotFiles || !rules.allowsTrailingDot || forbidden.contains(".")
        mapsAnything =
            mapsSpace || mapsDot
            || forbidden.contains { character in
                character.unicodeScalars.count == 1 && character.unicodeScalars.first.map { Self.lookAlike($0) != nil } == true
            }
    }

    /// Whether these rules map no name: ``encode(_:)`` and ``decode(_:)`` return every name as it is.
    package var isIdentity: Bool { !mapsAnything }

    private func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        rules.forbiddenCharacters.contains(Character(scalar))
    }

    /// The substitute of a character that can be refused anywhere: full-width forms for printable
    /// ASCII, control pictures for controls, `␠` for a space.
    private static func lookAlike(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x00...0x20: return Unicode.Scalar(scalar.value + 0x2400)
        case 0x21...0x7E: return Unicode.Scalar(scalar.value + 0xFEE0)
        case 0x7F: return delete
        default: return nil
        }
    }

    /// The character `scalar` is the substitute of, under any rules.
    private static func original(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x2400...0x2420: return Unicode.Scalar(scalar.value - 0x2400)
        case 0xFF01...0xFF5E: return Unicode.Scalar(scalar.value - 0xFEE0)
        case 0x2421: return "\u{7F}"
        default: return nil
        }
    }

    /// The character `scalar` stands for under these rules, when it is a substitute of theirs.
    private func replaced(by scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard let plain = Self.original(of: scalar) else { return nil }
        if plain == " ", mapsSpace { return plain }
        if plain == ".", mapsDot { return plain }
        return isForbidden(plain) ? plain : nil
    }

    private func isSubstitute(_ scalar: Unicode.Scalar) -> Bool {
        scalar == NameEncoder.quote || replaced(by: scalar) != nil
    }

    /// The name to send to the server for a user's `name`.
    package func encode(_ name: String) -> String {
        guard mapsAnything else { return name }
        var out = String.UnicodeScalarView()
        let scalars = Array(name.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if isSubstitute(scalar) {
                out.append(NameEncoder.quote)
                out.append(scalar)
            } else if isForbidden(scalar), let mapped = Self.lookAlike(scalar) {
                out.append(mapped)
            } else if scalar == " ", index == 0, !rules.allowsLeadingSpace {
                out.append(NameEncoder.space)
            } else if scalar == " ", index == scalars.count - 1, !rules.allowsTrailingSpace {
                out.append(NameEncoder.space)
            } else if scalar == ".", index == scalars.count - 1, !rules.allowsTrailingDot {
                out.append(NameEncoder.dot)
            } else if scalar == ".", index == 0, !rules.allowsDotFiles {
                out.append(NameEncoder.dot)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The user's name for a `name` read from the server: each substitute of a character these
    /// rules refuse becomes that character again, and an escaped substitute (`‛？`) the substitute
    /// itself; a `‛` before anything else is kept.
    package func decode(_ name: String) -> String {
        guard mapsAnything else { return name }
        var out = String.UnicodeScalarView()
        let scalars = Array(name.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == NameEncoder.quote, index + 1 < scalars.count, isSubstitute(scalars[index + 1]) {
                out.append(scalars[index + 1])
                index += 2
                continue
            }
            out.append(replaced(by: scalar) ?? scalar)
            index += 1
        }
        return String(out)
    }
}
