import Foundation

/// A lexical token of NXQL.
enum NXQLToken: Equatable, Sendable {
    case word(String)        // identifiers and keywords (keywords matched case-insensitively)
    case string(String)      // '…' with backslash escapes resolved
    case number(String)
    case symbol(String)      // ( ) , = <> != < <= > >= *
}

/// Splits NXQL text into tokens.
struct NXQLLexer {
    struct LexError: Error, CustomStringConvertible { var description: String }

    static func tokenize(_ text: String) throws -> [NXQLToken] {
        let chars = Array(text)
        var tokens: [NXQLToken] = []
        var i = 0
        func isWordStart(_ c: Character) -> Bool { c.isLetter || c == "_" }
        func isWordChar(_ c: Character) -> Bool { c.isLetter || c.isNumber || "_:/.-".contains(c) }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c == "'" || c == "\"" {
                let quote = c
                var value = ""
                i += 1
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    if d == "\\" {
                        guard i + 1 < chars.count else { throw LexError(description: "unterminated escape") }
                        let e = chars[i + 1]
                        switch e {
                        case "n": value.append("\n")
                        case "r": value.append("\r")
                        case "t": value.append("\t")
                        default: value.append(e == "%" || e == "_" ? "\\\(e)" : String(e))
                        }
                        i += 2
                        continue
                    }
                    if d == quote { closed = true; i += 1; break }
                    value.append(d)
                    i += 1
                }
                guard closed else { throw LexError(description: "unterminated string literal") }
                tokens.append(.string(value))
                continue
            }
            if c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isNumber && !(tokens.last.map(Self.endsOperand) ?? false)) {
                var j = i + 1
                while j < chars.count, chars[j].isNumber || chars[j] == "." { j += 1 }
                tokens.append(.number(String(chars[i..<j])))
                i = j
                continue
            }
            if isWordStart(c) {
                var j = i + 1
                while j < chars.count, isWordChar(chars[j]) { j += 1 }
                tokens.append(.word(String(chars[i..<j])))
                i = j
                continue
            }
            let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
            if ["<>", "!=", "<=", ">="].contains(two) {
                tokens.append(.symbol(two))
                i += 2
                continue
            }
            if "(),=<>*".contains(c) {
                tokens.append(.symbol(String(c)))
                i += 1
                continue
            }
            throw LexError(description: "unexpected character '\(c)'")
        }
        return tokens
    }

    private static func endsOperand(_ token: NXQLToken) -> Bool {
        switch token {
        case .word, .string, .number: return true
        case .symbol(let s): return s == ")"
        }
    }
}
