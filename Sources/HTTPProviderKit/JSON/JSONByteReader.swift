import Foundation
import NIOCore
import ProviderAPI

/// A strict, hardened JSON reader that makes a ``JSONValue`` straight from UTF-8 bytes.
///
/// It gives the same values as `JSONDecoder` decoding a ``JSONValue`` (which it replaces in the
/// adapters' hot paths: `JSONDecoder` built a map of the document, then ``JSONValue/init(from:)``
/// probed every value as a boolean, an integer and a double, three thrown errors per string,
/// before reading it as a string), in particular:
///
/// - numbers: an integer that fits in 64 bits is ``JSONValue/integer(_:)``; a number with a
///   fraction or an exponent whose value is integral is an integer too (`1.0`, `1e2`, `-0.0`,
///   `1e-400`), exactly as `JSONDecoder` converts it; everything else is ``JSONValue/double(_:)``;
/// - a repeated member name keeps its **first** value; member order is not kept (``JSONValue``
///   holds objects in a dictionary);
/// - a UTF-8 byte order mark before the document is skipped;
/// - nesting is limited to ``defaultMaximumDepth`` levels (`JSONDecoder`'s own limit) unless a
///   caller asks for less.
///
/// It follows RFC 8259 and refuses, as `ProviderError.Code.invalidResponse` with the message
/// `malformed JSON at byte N: …` (N counts from the first byte given, byte order mark included):
/// an empty document, trailing garbage after the value, bytes that are not UTF-8 (overlong forms,
/// encoded surrogates, code points above U+10FFFF; documents in UTF-16 or UTF-32, which
/// `JSONDecoder` would convert, are refused as well), unescaped control characters in strings,
/// unknown escapes, a `\u` escape of a lone surrogate (an unpaired high or low surrogate is an
/// error, never U+FFFD, as in `JSONDecoder`), leading zeros, `+1`, `.5`, `1.`, `NaN`,
/// `Infinity`, numbers beyond the range of `Double` (`1e400`), trailing commas (which
/// `JSONDecoder` tolerates), comments, single quotes and nesting deeper than the limit.
///
/// It works iteratively (an explicit stack of open containers), so a hostile document can
/// never exhaust the thread's stack, and never reads outside the buffer it is given.
package enum JSONByteReader {
    /// The deepest nesting of arrays and objects accepted by default, `JSONDecoder`'s own limit.
    package static let defaultMaximumDepth = 512

    /// Reads the JSON document in `data`.
    ///
    /// - Parameters:
    ///   - data: the document's bytes.
    ///   - maximumDepth: the deepest nesting of arrays and objects accepted (an empty
    ///     array at the top is depth 1).
    /// - Throws: `ProviderError.Code.invalidResponse` when `data` is not one well-formed JSON value.
    package static func value(from data: Data, maximumDepth: Int = defaultMaximumDepth) throws -> JSONValue {
        try data.withUnsafeBytes { try value(from: $0, maximumDepth: maximumDepth) }
    }

    /// Reads the JSON document in the readable bytes of `buffer`.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when the bytes are not one well-formed JSON value.
    package static func value(from buffer: ByteBuffer, maximumDepth: Int = defaultMaximumDepth) throws -> JSONValue {
        try buffer.withUnsafeReadableBytes { try value(from: $0, maximumDepth: maximumDepth) }
    }

    /// Reads the JSON document in `bytes`.
    ///
    /// - Throws: `ProviderError.Code.invalidResponse` when `bytes` are not one well-formed JSON value.
    package static func value(from bytes: UnsafeRawBufferPointer, maximumDepth: Int = defaultMaximumDepth) throws -> JSONValue {
        var parser = JSONByteParser(bytes: bytes.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
        return try parser.document()
    }

    /// Skims the JSON object in the readable bytes of `buffer`: its top-level members, without
    /// building the arrays and objects nested in them (see ``JSONObjectSkim``).
    ///
    /// - Returns: the members, or `nil` when the bytes are not one JSON object that the skim can
    ///   read (a caller then reads the document with ``value(from:maximumDepth:)-(ByteBuffer,_)``,
    ///   which says what is wrong).
    package static func skimObject(from buffer: ByteBuffer, maximumDepth: Int = defaultMaximumDepth) -> JSONObjectSkim? {
        buffer.withUnsafeReadableBytes { bytes in
            var parser = JSONByteParser(bytes: bytes.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            return try? parser.skimObject()
        }
    }
}

/// The state of one read: the bytes, where it is, and the containers still open.
private struct JSONByteParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var position = 0
    /// The decoded bytes of a string with escapes, reused from string to string.
    private var scratch: [UInt8] = []

    /// An open array or object: where its values start on ``elements`` or ``members``, and for
    /// an object the name of the member being read.
    private struct Frame {
        var isObject: Bool
        var start: Int
        var key = ""
    }
    /// The elements of the open arrays, innermost last; a closing array takes its own off the end.
    private var elements: [JSONValue] = []
    /// The members of the open objects, innermost last, in document order.
    private var members: [(key: String, value: JSONValue)] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    // MARK: Document and containers

    mutating func document() throws -> JSONValue {
        let count = bytes.count
        try skipByteOrderMark()
        skipWhitespace()
        guard position < count else { throw failure("the document is empty") }
        let value = try readValue()
        skipWhitespace()
        guard position == count else { throw failure("unexpected \(describe(bytes[position])) after the value") }
        return value
    }

    /// Reads the top-level members of an object, skipping the containers nested in them.
    mutating func skimObject() throws -> JSONObjectSkim {
        try skipByteOrderMark()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { throw failure("the document is not an object") }
        position += 1
        var skim = JSONObjectSkim(members: [:])
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                let name = try readMemberName()
                skipWhitespace()
                guard position < bytes.count else { throw failure("the document ends where a value was expected") }
                let member: JSONObjectSkim.Member
                switch bytes[position] {
                case UInt8(ascii: "["): member = .array(count: try skipContainer())
                case UInt8(ascii: "{"): member = .object(count: try skipContainer())
                default: member = .value(try readValue())
                }
                // A repeated name keeps its first value, as the full read does.
                if skim.members[name] == nil { skim.members[name] = member }
                skipWhitespace()
                guard position < bytes.count else { throw failure("the document ends inside an object") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw failure("expected ',' or '}' after an object member") }
                position += 1
                break
            }
        }
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected \(describe(bytes[position])) after the value") }
        return skim
    }

    /// Steps over the array or object at `position`, following only its brackets and strings
    /// (nothing inside is decoded or validated), and returns how many elements or members it
    /// holds at its own level.
    private mutating func skipContainer() throws -> Int {
        var depth = 0
        var count = 0
        var empty = true
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                if depth == 1 { empty = false }
                position += 1
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < bytes.count else { throw failure("the document ends inside a string") }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 1 { empty = false }
                depth += 1
                guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    position += 1
                    return empty ? 0 : count + 1
                }
            case UInt8(ascii: ","):
                if depth == 1 { count += 1 }
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                if depth == 1 { empty = false }
            }
            position += 1
        }
        throw failure("the document ends inside a container")
    }

    /// Steps over a UTF-8 byte order mark; refuses a document in UTF-16 or UTF-32.
    private mutating func skipByteOrderMark() throws {
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        } else if count >= 2, bytes[0] == 0 || bytes[1] == 0 || (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw failure("JSON that is not in UTF-8 is refused", at: 0)
        }
    }

    /// Reads one value and every container it opens, without recursion.
    private mutating func readValue() throws -> JSONValue {
        var stack: [Frame] = []
        var value: JSONValue
        readingValue: while true {
            skipWhitespace()
            guard position < bytes.count else { throw failure("the document ends where a value was expected") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                guard stack.count < maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    value = .object([:])
                } else {
                    stack.append(Frame(isObject: true, start: members.count, key: try readMemberName()))
                    continue readingValue
                }
            case UInt8(ascii: "["):
                guard stack.count < maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    stack.append(Frame(isObject: false, start: elements.count))
                    continue readingValue
                }
            case UInt8(ascii: "\""):
                value = .string(try readString())
            case UInt8(ascii: "t"):
                try readLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try readLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try readLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try readNumber()
            case let byte:
                throw failure("unexpected \(describe(byte)) where a value was expected")
            }

            // A value is complete: hand it to the open containers, closing those that end here.
            while let top = stack.indices.last {
                skipWhitespace()
                guard position < bytes.count else {
                    throw failure(stack[top].isObject ? "the document ends inside an object" : "the document ends inside an array")
                }
                let byte = bytes[position]
                if stack[top].isObject {
                    members.append((stack[top].key, value))
                    if byte == UInt8(ascii: ",") {
                        position += 1
                        stack[top].key = try readMemberName()
                        continue readingValue
                    }
                    guard byte == UInt8(ascii: "}") else { throw failure("expected ',' or '}' after an object member, found \(describe(byte))") }
                    position += 1
                    value = .object(closeObject(from: stack.removeLast().start))
                } else {
                    elements.append(value)
                    if byte == UInt8(ascii: ",") {
                        position += 1
                        skipWhitespace()
                        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { throw failure("trailing comma in an array") }
                        continue readingValue
                    }
                    guard byte == UInt8(ascii: "]") else { throw failure("expected ',' or ']' after an array element, found \(describe(byte))") }
                    position += 1
                    let start = stack.removeLast().start
                    value = .array(Array(elements[start...]))
                    elements.removeSubrange(start...)
                }
            }
            return value
        }
    }

    /// The dictionary of the members from `start` on, taken off ``members``; a repeated member
    /// name keeps its first value, as `JSONDecoder` does. Sized once, so no key is hashed twice.
    private mutating func closeObject(from start: Int) -> [String: JSONValue] {
        var dictionary = [String: JSONValue](minimumCapacity: members.count - start)
        for index in start..<members.count {
            Self.keepFirst(&dictionary[members[index].key], members[index].value)
        }
        members.removeSubrange(start...)
        return dictionary
    }

    @inline(__always)
    private static func keepFirst(_ slot: inout JSONValue?, _ value: JSONValue) {
        if case .none = slot { slot = value }
    }

    /// `"name"` and the colon after it.
    private mutating func readMemberName() throws -> String {
        skipWhitespace()
        guard position < bytes.count else { throw failure("the document ends inside an object") }
        guard bytes[position] == UInt8(ascii: "\"") else {
            if bytes[position] == UInt8(ascii: "}") { throw failure("trailing comma in an object") }
            throw failure("expected a member name in double quotes, found \(describe(bytes[position]))")
        }
        let name = try readString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw failure(position < bytes.count ? "expected ':' after a member name, found \(describe(bytes[position]))" : "the document ends inside an object")
        }
        position += 1
        return name
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws {
        let length = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: length)
        guard bytes.count - position >= length, zip(expected, bytes[position..<position + length]).allSatisfy({ $0 == $1 }) else {
            throw failure("unexpected \(describe(bytes[position])) where a value was expected (not \(literal))")
        }
        position += length
    }

    // MARK: Strings

    /// A string; `position` is on its opening quote.
    private mutating func readString() throws -> String {
        let opening = position
        position += 1
        let start = position
        var highBits: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[start..<position])
                if highBits >= 0x80 { try validateUTF8(start..<position) }
                position += 1
                return String(decoding: content, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start, opening: opening) }
            if byte < 0x20 { throw failure("unescaped control character \(describe(byte)) in a string") }
            highBits |= byte
            position += 1
        }
        throw failure("the document ends inside a string", at: opening)
    }

    /// The rest of a string that has escapes, decoded into ``scratch``; `position` is on the first backslash.
    private mutating func readEscapedString(from start: Int, opening: Int) throws -> String {
        scratch.removeAll(keepingCapacity: true)
        var run = start
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                try appendRun(run..<position)
                position += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try appendRun(run..<position)
                try readEscape()
                run = position
                continue
            }
            if byte < 0x20 { throw failure("unescaped control character \(describe(byte)) in a string") }
            position += 1
        }
        throw failure("the document ends inside a string", at: opening)
    }

    private mutating func appendRun(_ range: Range<Int>) throws {
        guard !range.isEmpty else { return }
        try validateUTF8(range)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// One escape, appended to ``scratch`` as UTF-8; `position` is on its backslash.
    private mutating func readEscape() throws {
        guard position + 1 < bytes.count else { throw failure("the document ends inside an escape") }
        let letter = bytes[position + 1]
        let simple: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = letter
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            try readUnicodeEscape()
            return
        default:
            throw failure("unknown escape '\\' followed by \(describe(letter))")
        }
        scratch.append(simple)
        position += 2
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`; a lone surrogate is an error.
    private mutating func readUnicodeEscape() throws {
        let escape = position
        let unit = try hexQuad(at: position + 2)
        position += 6
        var scalarValue = UInt32(unit)
        if (0xDC00...0xDFFF).contains(unit) {
            throw failure("\\u escape of a lone low surrogate", at: escape)
        }
        if (0xD800...0xDBFF).contains(unit) {
            guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw failure("\\u escape of a high surrogate without its low surrogate", at: escape)
            }
            let low = try hexQuad(at: position + 2)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("\\u escape of a high surrogate without its low surrogate", at: escape)
            }
            position += 6
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        }
        appendUTF8(scalarValue)
    }

    /// Appends a scalar value (never a surrogate: those are paired above) as UTF-8.
    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case 0..<0x80:
            scratch.append(UInt8(value))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | value >> 6))
            scratch.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | value >> 12))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | value >> 18))
            scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        }
    }

    private func hexQuad(at index: Int) throws -> UInt16 {
        guard bytes.count - index >= 4 else { throw failure("the document ends inside a \\u escape") }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\(describe(byte)) in a \\u escape is not a hexadecimal digit", at: index + offset)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Checks that `range` is well-formed UTF-8 (``UTF8Validation``: no overlong forms, no
    /// surrogates, nothing above U+10FFFF).
    private func validateUTF8(_ range: Range<Int>) throws {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            switch UTF8Validation.sequence(in: bytes, at: index, end: end) {
            case .valid(let next): index = next
            case .invalidLead: throw failure("invalid UTF-8 byte \(hex(lead)) in a string", at: index)
            case .truncated: throw failure("truncated UTF-8 sequence in a string", at: index)
            case .invalidContinuation: throw failure("invalid UTF-8 sequence in a string", at: index)
            }
        }
    }

    // MARK: Numbers

    /// A number; `position` is on its first byte (`-` or a digit).
    private mutating func readNumber() throws -> JSONValue {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < bytes.count, Self.isDigit(bytes[position]) else {
            throw failure("a number needs a digit after '-'", at: start)
        }
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, Self.isDigit(bytes[position]) { throw failure("a number with a leading zero", at: start) }
        } else {
            while position < bytes.count, Self.isDigit(bytes[position]) {
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
                if overflow1 || overflow2 { overflow = true } else { magnitude = sum }
                position += 1
            }
        }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, Self.isDigit(bytes[position]) else { throw failure("a number needs digits after '.'", at: start) }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, Self.isDigit(bytes[position]) else { throw failure("a number needs digits in its exponent", at: start) }
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if isInteger, !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .integer(Int64(truncatingIfNeeded: 0 &- magnitude)) }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else {
            throw failure("the number \(String(decoding: text, as: UTF8.self)) is beyond the range of a double", at: start)
        }
        // An integer literal beyond 64 bits: JSONDecoder's Int64 refuses it, so it is a double.
        if isInteger { return .double(double) }
        // A fraction or an exponent: JSONDecoder's Int64 takes an integral value below 2^53
        // from the double; above, it goes through Decimal, so the rare number there is asked of it.
        guard let integer = Int64(exactly: double) else { return .double(double) }
        if double.magnitude < 0x1p53 { return .integer(integer) }
        if let decoded = try? JSONDecoder().decode(Int64.self, from: Data(buffer: text)) { return .integer(decoded) }
        return .double(double)
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: Errors

    private func failure(_ message: String, at offset: Int? = nil) -> ProviderError {
        ProviderError(.invalidResponse, "malformed JSON at byte \(offset ?? position): \(message)")
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte \(hex(byte))"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
    }
}
