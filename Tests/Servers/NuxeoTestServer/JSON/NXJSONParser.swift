import Foundation

/// A small strict JSON parser producing ``NXJSON`` (keeps object key order and
/// distinguishes booleans from numbers, which `JSONSerialization` does not do
/// reliably on every platform).
struct NXJSONParser {
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    private let bytes: [UInt8]
    private var index = 0

    /// Parses a complete JSON document.
    static func parse(_ data: Data) throws -> NXJSON {
        var parser = NXJSONParser(bytes: Array(data))
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw ParseError(description: "trailing characters") }
        return value
    }

    /// Parses a complete JSON document from text.
    static func parse(_ text: String) throws -> NXJSON {
        try parse(Data(text.utf8))
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func expect(_ literal: String) throws {
        for byte in literal.utf8 {
            guard peek() == byte else { throw ParseError(description: "expected \(literal) at \(index)") }
            index += 1
        }
    }

    private mutating func parseValue() throws -> NXJSON {
        guard let c = peek() else { throw ParseError(description: "unexpected end") }
        switch c {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try parseNumber()
        }
    }

    private mutating func parseObject() throws -> NXJSON {
        index += 1
        var members: [(String, NXJSON)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw ParseError(description: "expected key at \(index)") }
            let key = try parseString()
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect("}")
            return .object(members)
        }
    }

    private mutating func parseArray() throws -> NXJSON {
        index += 1
        var items: [NXJSON] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect("]")
            return .array(items)
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count,
              let text = String(bytes: bytes[index..<index + 4], encoding: .ascii),
              let value = UInt32(text, radix: 16)
        else { throw ParseError(description: "bad \\u escape at \(index)") }
        index += 4
        return value
    }

    private mutating func parseString() throws -> String {
        index += 1
        var buffer: [UInt8] = []
        while true {
            guard let c = peek() else { throw ParseError(description: "unterminated string") }
            index += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { buffer.append(c); continue }
            guard let e = peek() else { throw ParseError(description: "bad escape") }
            index += 1
            switch e {
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code), peek() == UInt8(ascii: "\\") {
                    index += 1
                    try expect("u")
                    let low = try parseHex4()
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: buffer.append(e)
            }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    private mutating func parseNumber() throws -> NXJSON {
        let start = index
        while let c = peek(), "+-0123456789.eE".utf8.contains(c) { index += 1 }
        guard index > start, let text = String(bytes: bytes[start..<index], encoding: .ascii) else {
            throw ParseError(description: "unexpected character at \(start)")
        }
        if let i = Int64(text) { return .int(i) }
        if let d = Double(text) { return .double(d) }
        throw ParseError(description: "bad number \(text)")
    }
}
