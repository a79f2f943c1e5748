/// The byte-level pieces of ``XMLByteReader``: searches, name and character checks, references.
extension XMLByteReader {
    /// A predefined entity or a character reference (`lt`, `#38`, `#x26`); `nil` for anything else.
    static func entity(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "apos": return "'"
        case "quot": return "\""
        case let reference where reference.hasPrefix("#"):
            let digits = reference.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, isXMLCharacter(value), !digits.hasPrefix("x+"), !digits.hasPrefix("+") else { return nil }
            return Unicode.Scalar(value)
        default: return nil
        }
    }

    static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    /// UTF-16 units in valid UTF-8: one per lead byte, two for a four-byte sequence.
    static func utf16Count(_ run: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var units = 0
        for byte in run where byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
        return units
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// A plausible XML name: not empty, no markup or quote characters, not starting with a digit, `-` or `.`.
    static func isName(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, !(0x30...0x39).contains(first), first != UInt8(ascii: "-"), first != UInt8(ascii: ".") else {
            return false
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"),
                UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?"), 0x20, 0x09, 0x0A, 0x0D:
                return false
            default: continue
            }
        }
        return true
    }

    static let xmlns: [UInt8] = Array("xmlns".utf8)
    static let xmlnsColon: [UInt8] = Array("xmlns:".utf8)
    static let xmlPrefix: [UInt8] = Array("xml".utf8)
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The `>` that ends a start tag, skipping quoted attribute values; the search starts inside
    /// the value opened by `quote` (0: outside any), and leaves there the quote open at the end
    /// of `buffer` when it finds no `>`.
    static func tagEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, quote: inout UInt8) -> Int? {
        var open = quote
        var index = from
        while index < buffer.count {
            let byte = buffer[index]
            if open != 0 {
                if byte == open { open = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                open = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        quote = open
        return nil
    }

    static func find(_ buffer: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        let bytes = needle.utf8Start
        guard count > 0, buffer.count >= count else { return nil }
        var index = from
        let last = buffer.count - count
        while index <= last {
            if buffer[index] == bytes[0] {
                var offset = 1
                while offset < count, buffer[index + offset] == bytes[offset] { offset += 1 }
                if offset == count { return index }
            }
            index += 1
        }
        return nil
    }

    static func hasPrefix(_ buffer: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard buffer.count - index >= count else { return false }
        for offset in 0..<count where buffer[index + offset] != prefix.utf8Start[offset] { return false }
        return true
    }

    /// Whether the bytes from `index` to the end could still grow into one of `prefixes`.
    static func couldBecome(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int, _ prefixes: [StaticString]) -> Bool {
        prefixes.contains { prefix in
            let count = min(prefix.utf8CodeUnitCount, buffer.count - index)
            return (0..<count).allSatisfy { buffer[index + $0] == prefix.utf8Start[$0] }
        }
    }
}
