import ArgumentParser
import Foundation
import ProviderAPI

/// Turns the portable query syntax of `strata search` into a ``Query``.
///
/// Terms are separated by spaces and all must hold:
///
/// | term | query |
/// |---|---|
/// | `name:TEXT` | ``Query/nameContains(_:)`` |
/// | `text:TEXT` or a bare word | ``Query/fullText(_:)`` |
/// | `type:file`, `type:folder` | ``Query/kind(_:)`` |
/// | `mime:TYPE` (`image/*` for a family) | ``Query/mimeType(_:)`` |
/// | `size>N`, `size>=N`, `size<N`, `size<=N` (N in bytes, or with `k`, `m`, `g`: KiB, MiB, GiB) | ``Query/size(min:max:)`` |
/// | `modified>DATE`, `modified<DATE` (`YYYY-MM-DD` is midnight UTC; or ISO 8601) | ``Query/modified(after:before:)`` |
///
/// `modified>DATE` means at or after that instant, `modified<DATE` before it. Values with spaces
/// are quoted: `name:"two words"`, `"exact phrase"` (double quotes, or single quotes at the start
/// of a term or value; a backslash escapes the next character). Text starting with `SELECT ` is
/// the server's own language and becomes ``Query/native(_:)`` untouched. Below a folder other
/// than the root, ``Query/under(_:)`` is added.
enum SearchQueryParser {
    /// The query `text` describes, restricted to `under` unless it is the root.
    ///
    /// - Throws: `ValidationError` for an empty query, an unknown field, or a malformed value.
    static func parse(_ text: String, under folder: ItemPath) throws -> Query {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.prefix(6).lowercased() == "select", trimmed.dropFirst(6).first?.isWhitespace == true {
            return .native(trimmed)
        }
        var terms: [Query] = []
        var sizeBounds: (min: Int64?, max: Int64?) = (nil, nil)
        var dateBounds: (after: Date?, before: Date?) = (nil, nil)
        for token in try tokens(trimmed) {
            guard let (field, operation, value) = split(token) else {
                if !token.text.isEmpty { terms.append(.fullText(token.text)) }
                continue
            }
            switch (field, operation) {
            case ("name", ":"): terms.append(.nameContains(try nonEmpty(value, field)))
            case ("text", ":"): terms.append(.fullText(try nonEmpty(value, field)))
            case ("type", ":"):
                guard let kind = ItemKind(rawValue: value.lowercased()) else {
                    throw ValidationError("type: takes file or folder, not '\(value)'")
                }
                terms.append(.kind(kind))
            case ("mime", ":"): terms.append(.mimeType(try nonEmpty(value, field)))
            case ("size", ">"), ("size", ">="):
                let bytes = try size(value)
                guard operation == ">=" || bytes < .max else { throw ValidationError("size>\(value) matches nothing") }
                sizeBounds.min = max(sizeBounds.min ?? 0, operation == ">" ? bytes + 1 : bytes)
            case ("size", "<"), ("size", "<="):
                let bytes = try size(value)
                let bound = operation == "<" ? bytes - 1 : bytes
                guard bound >= 0 else { throw ValidationError("size<\(value) matches nothing") }
                sizeBounds.max = min(sizeBounds.max ?? .max, bound)
            case ("modified", ">"), ("modified", ">="):
                let date = try DateArgument.parse(value, what: "modified>")
                dateBounds.after = max(dateBounds.after ?? .distantPast, date)
            case ("modified", "<"), ("modified", "<="):
                let date = try DateArgument.parse(value, what: "modified<")
                dateBounds.before = min(dateBounds.before ?? .distantFuture, date)
            default:
                throw ValidationError(
                    "unknown search term '\(token.text)': use name:, text:, type:, mime:, size> size<, modified> modified< or a bare word")
            }
        }
        if sizeBounds.min != nil || sizeBounds.max != nil { terms.append(.size(min: sizeBounds.min, max: sizeBounds.max)) }
        if dateBounds.after != nil || dateBounds.before != nil {
            terms.append(.modified(after: dateBounds.after, before: dateBounds.before))
        }
        if !folder.isRoot { terms.append(.under(folder)) }
        switch terms.count {
        case 0: throw ValidationError("the search query is empty")
        case 1: return terms[0]
        default: return .and(terms)
        }
    }

    /// A term as typed, without its quotes; `quotedFrom` is the offset of its first quoted character.
    struct Token: Equatable {
        var text: String
        var quotedFrom: Int?
    }

    /// Splits on unquoted white space, removing quotes and backslash escapes.
    static func tokens(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        var current: Token?
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                current = appending(character, to: current, quoted: true)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { current = appending(character, to: current, quoted: true) }
            } else if character == "\"" || (character == "'" && opensSingleQuote(after: current)) {
                quote = character
                var token = current ?? Token(text: "")
                if token.quotedFrom == nil { token.quotedFrom = token.text.count }
                current = token
            } else if character.isWhitespace {
                if let token = current { tokens.append(token) }
                current = nil
            } else {
                current = appending(character, to: current, quoted: false)
            }
        }
        if escaped { throw ValidationError("the search query ends with a lone backslash") }
        if let quote { throw ValidationError("the search query has an unclosed \(quote)") }
        if let current { tokens.append(current) }
        return tokens
    }

    /// A single quote opens a quoted value only at the start of a term or of its value, so
    /// that apostrophes in words (`don't`) stay literal.
    private static func opensSingleQuote(after token: Token?) -> Bool {
        guard let last = token?.text.last else { return true }
        return ":<>=".contains(last)
    }

    private static func appending(_ character: Character, to token: Token?, quoted: Bool) -> Token {
        var token = token ?? Token(text: "")
        if quoted, token.quotedFrom == nil { token.quotedFrom = token.text.count }
        token.text.append(character)
        return token
    }

    /// The field, operator and value of `field:value`, `field>value` and the like, or `nil` for a
    /// bare word (one whose operator is missing or quoted).
    private static func split(_ token: Token) -> (field: String, operation: String, value: String)? {
        guard let index = token.text.firstIndex(where: { ":<>".contains($0) }) else { return nil }
        let offset = token.text.distance(from: token.text.startIndex, to: index)
        if let quoted = token.quotedFrom, quoted <= offset { return nil }
        let field = token.text[..<index].lowercased()
        guard !field.isEmpty, field.allSatisfy({ $0.isLetter }) else { return nil }
        var operation = String(token.text[index])
        var rest = token.text[token.text.index(after: index)...]
        if operation != ":", rest.first == "=" {
            operation += "="
            rest = rest.dropFirst()
        }
        return (field, operation, String(rest))
    }

    private static func nonEmpty(_ value: String, _ field: String) throws -> String {
        guard !value.isEmpty else { throw ValidationError("\(field): needs a value") }
        return value
    }

    /// Bytes, with an optional binary suffix `k`, `m`, `g` (case-insensitive, `KiB`/`KB` too).
    static func size(_ text: String) throws -> Int64 {
        var digits = text.lowercased()
        var multiplier: Int64 = 1
        for suffix in ["ib", "b"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits.removeLast(suffix.count)
            break
        }
        switch digits.last {
        case "k": multiplier = 1 << 10
        case "m": multiplier = 1 << 20
        case "g": multiplier = 1 << 30
        case "t": multiplier = 1 << 40
        default: break
        }
        if multiplier > 1 { digits.removeLast() }
        guard let value = Int64(digits), value >= 0 else {
            throw ValidationError("size takes a number of bytes (optionally with k, m, g), not '\(text)'")
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { throw ValidationError("size \(text) is too large") }
        return product
    }
}
