import Foundation

/// PHP-style form decoding: `urldecode` (`+` is a space) and `rawurldecode`,
/// both lenient (a `%` not followed by two hex digits stays as is).
enum FormCodec {
    /// `a=1&b=2` → pairs, names and values decoded with `urldecode`.
    static func parse(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (name: urldecode(String(parts[0])), value: parts.count > 1 ? urldecode(String(parts[1])) : "")
        }
    }

    /// PHP `urldecode`.
    static func urldecode(_ text: String) -> String {
        decode(text, plusIsSpace: true)
    }

    /// PHP `rawurldecode`.
    static func rawurldecode(_ text: String) -> String {
        decode(text, plusIsSpace: false)
    }

    private static func decode(_ text: String, plusIsSpace: Bool) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension FormCodec {
    /// Percent-encodes everything outside RFC 3986 unreserved characters.
    static func encodeComponent(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
