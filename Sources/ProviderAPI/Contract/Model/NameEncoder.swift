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

    private static let quote: Unicode.Scalar = "\u{201B}"
    private static let space: Unicode.Scalar = "\u{2420}"
    private static let dot: Unicode.Scalar = "\u{FF0E}"

    // Names are encoded scalar by scalar, not Character by Character: a refused character
    // followed by a combining mark ("?\u{301}") is one Character but still reaches the
    // server as a raw "?", so it must be mapped all the same.

    /// Creates an encoder for a server's rules.
    public init(rules: NameRules) { self.rules = rules }

    private func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        rules.forbiddenCharacters.contains(Character(scalar))
    }

    private func lookAlike(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard scalar.value >= 0x21, scalar.value <= 0x7E else { return nil }
        return Unicode.Scalar(scalar.value + 0xFEE0)
    }

    private func original(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard scalar.value >= 0xFF01, scalar.value <= 0xFF5E else { return nil }
        return Unicode.Scalar(scalar.value - 0xFEE0)
    }

    private func isSubstitute(_ scalar: Unicode.Scalar) -> Bool {
        scalar == NameEncoder.quote || scalar == NameEncoder.space || scalar == NameEncoder.dot
            || original(of: scalar).map(isForbidden) == true
    }

    /// The name to send to the server for a user's `name`.
    public func encode(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(name.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if isSubstitute(scalar) {
                out.append(NameEncoder.quote)
                out.append(scalar)
            } else if isForbidden(scalar), let mapped = lookAlike(scalar) {
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

    /// The user's name for a `name` read from the server.
    public func decode(_ name: String) -> String {
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
            if scalar == NameEncoder.space {
                out.append(" ")
            } else if scalar == NameEncoder.dot {
                out.append(".")
            } else if let plain = original(of: scalar), isForbidden(plain) {
                out.append(plain)
            } else {
                out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }
}
