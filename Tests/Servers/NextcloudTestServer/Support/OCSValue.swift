import Foundation

/// A JSON-like value whose object keys keep their order, written as PHP writes OCS answers
/// (`json_encode`, or the OCS XML form), and read back from JSON text in order (the tests compare
/// key order with the recordings).
public indirect enum OCSValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A number with a fraction.
    case double(Double)
    /// A string.
    case string(String)
    /// An array (`[]`, or `<element>` children in XML).
    case array([OCSValue])
    /// An object with its keys in order.
    case object([(String, OCSValue)])

    /// Two values are equal when their kinds, keys (in order) and contents are.
    public static func == (lhs: OCSValue, rhs: OCSValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.elementsEqual(b) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value under `key` of an object.
    public subscript(key: String) -> OCSValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// The text of a string, or the decimal form of a number.
    public var text: String? {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        default: return nil
        }
    }

    // MARK: - Writing

    /// PHP's `json_encode` form: compact, `/` escaped as `\/`, non-ASCII as `\uXXXX`.
    public func json() -> String {
        var out = ""
        writeJSON(&out)
        return out
    }

    private func writeJSON(_ out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += String(value)
        case .string(let value): Self.writeJSONString(value, &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.writeJSON(&out)
            }
            out += "]"
        case .object(let pairs):
            if pairs.isEmpty {
                out += "[]"
                return
            }
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                Self.writeJSONString(pair.0, &out)
                out += ":"
                pair.1.writeJSON(&out)
            }
            out += "}"
        }
    }

    private static func writeJSONString(_ text: String, _ out: inout String) {
        out += "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x2F: out += "\\/"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20..<0x7F: out += String(UnicodeScalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        out += "\""
    }

    /// The OCS XML form of this value as the content of `<name>`, indented one space per level:
    /// `null` and empty arrays are `<name/>`, `false` is `<name></name>`, arrays hold `<element>`s.
    func xml(name: String, level: Int) -> String {
        let pad = String(repeating: " ", count: level)
        switch self {
        case .null: return "\(pad)<\(name)/>\n"
        case .bool(let value): return "\(pad)<\(name)>\(value ? "1" : "")</\(name)>\n"
        case .int(let value): return "\(pad)<\(name)>\(value)</\(name)>\n"
        case .double(let value): return "\(pad)<\(name)>\(value)</\(name)>\n"
        case .string(let value): return "\(pad)<\(name)>\(XMLText.escape(value))</\(name)>\n"
        case .array(let items):
            if items.isEmpty { return "\(pad)<\(name)/>\n" }
            return "\(pad)<\(name)>\n" + items.map { $0.xml(name: "element", level: level + 1) }.joined() + "\(pad)</\(name)>\n"
        case .object(let pairs):
            if pairs.isEmpty { return "\(pad)<\(name)/>\n" }
            return "\(pad)<\(name)>\n" + pairs.map { key, value in
                let tag = key.first?.isNumber == true ? "element" : key
                return value.xml(name: tag, level: level + 1)
            }.joined() + "\(pad)</\(name)>\n"
        }
    }

    // MARK: - Reading

    /// Reads JSON text, keeping key order; `nil` when it is not JSON.
    public static func parse(json data: Data) -> OCSValue? {
        var reader = Reader(bytes: Array(data))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == reader.bytes.count ? value : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            let chars = Array(word.utf8)
            guard index + chars.count <= bytes.count, Array(bytes[index..<index + chars.count]) == chars else { return false }
            index += chars.count
            return true
        }

        mutating func value(depth: Int) -> OCSValue? {
            guard depth < 128 else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var pairs: [(String, OCSValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    guard let item = value(depth: depth + 1) else { return nil }
                    pairs.append((key, item))
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(pairs) }
                    return nil
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [OCSValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    return nil
                }
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        mutating func number() -> OCSValue? {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if let value = Int64(text) { return .int(value) }
            return Double(text).map { .double($0) }
        }

        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var units: [UInt16] = []
            var raw: [UInt8] = []
            func flush() { units += String(decoding: raw, as: UTF8.self).utf16; raw.removeAll() }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    flush()
                    return String(decoding: units, as: UTF16.self)
                }
                guard byte == UInt8(ascii: "\\") else { raw.append(byte); continue }
                flush()
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): units.append(0x0A)
                case UInt8(ascii: "r"): units.append(0x0D)
                case UInt8(ascii: "t"): units.append(0x09)
                case UInt8(ascii: "b"): units.append(0x08)
                case UInt8(ascii: "f"): units.append(0x0C)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count, let unit = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    index += 4
                    units.append(unit)
                default: units.append(UInt16(escape))
                }
            }
            return nil
        }
    }
}
