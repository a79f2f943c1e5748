import Foundation

/// `application/x-www-form-urlencoded` and percent-decoding.
enum FormCodec {
    /// Name/value pairs of a query string or form body, in order.
    static func parse(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeForm(String(parts[0]))
            let value = parts.count > 1 ? decodeForm(String(parts[1])) : ""
            return (name, value)
        }
    }

    static func decodeForm(_ text: String) -> String {
        percentDecode(text.replacingOccurrences(of: "+", with: " "))
    }

    /// Decodes `%XX` escapes; a malformed escape is kept as it is.
    static func percentDecode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        var pending: [UInt8] = []
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                pending = [byte]
                guard let high = iterator.next() else { bytes += pending; break }
                pending.append(high)
                guard let low = iterator.next() else { bytes += pending; break }
                pending.append(low)
                if let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                } else {
                    bytes += pending
                }
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Encodes a path as Sabre does (`Sabre\HTTP\encodePath`): everything but letters, digits and
    /// `_-.~()/:@` becomes `%XX`.
    static func encodePath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let char = Character(Unicode.Scalar(byte))
            if byte < 0x80, char.isLetter || char.isNumber || "_-.~()/:@".contains(char) {
                out.append(char)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
