import Foundation

/// Makes server-controlled text (names, paths, messages) safe to print on a terminal, in the
/// style of `ls -b`: a name cannot move the cursor, clear the screen, set the window title, or
/// forge a line of the listing.
///
/// What is escaped:
/// - a backslash, doubled: `\\` (so that every escape reads back unambiguously);
/// - C0 controls as C escapes: `\a \b \t \n \v \f \r`, ESC as `\e`, the others and DEL as `\x00`–`\x1f`, `\x7f`;
/// - C1 controls (U+0080–U+009F) as `\u{85}`;
/// - line and paragraph separators (U+2028, U+2029), and invisible format characters (Unicode
///   category Cf: the bidirectional overrides and isolates such as U+202E, which make a name read
///   backwards, zero-width spaces, U+FEFF) as `\u{202e}`. The zero-width joiner and non-joiner
///   (U+200C, U+200D) and the tag characters (U+E0020–U+E007F) are kept: emoji sequences and
///   scripts need them, and they move nothing.
///
/// `--json` output is not escaped this way: `JSONEncoder` writes every control character as
/// `\n` or `\u001b`, so JSON stays exact.
enum TerminalText {
    /// `text` with every character listed above escaped.
    static func escape(_ text: String) -> String {
        // Most names need nothing: return them without copying.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0x07: result += "\\a"
            case 0x08: result += "\\b"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0B: result += "\\v"
            case 0x0C: result += "\\f"
            case 0x0D: result += "\\r"
            case 0x1B: result += "\\e"
            case 0x00...0x1F, 0x7F: result += "\\x" + hex(scalar.value, width: 2)
            default: result += "\\u{" + hex(scalar.value, width: 1) + "}"
            }
        }
        return result
    }

    /// Whether `scalar` is printed escaped.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x5C, 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        case 0x20...0x7E: return false
        case 0x200C, 0x200D, 0xE0020...0xE007F: return false
        default: return scalar.properties.generalCategory == .format
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
