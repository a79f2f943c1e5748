import Foundation

/// Percent-decoding helpers.
enum FormDecoding {
    /// `application/x-www-form-urlencoded` rules (`java.net.URLDecoder`): `+` is a space, `%XX` UTF-8.
    static func decode(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Path-segment rules: `%XX` only, `+` stays.
    static func decodeSegment(_ text: String) -> String {
        text.removingPercentEncoding ?? text
    }

    /// Percent-encodes everything outside RFC 3986 unreserved characters.
    static func encodeComponent(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.unicodeScalars.map { scalar -> String in
            if scalar.isASCII, allowed.contains(scalar) { return String(scalar) }
            return String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
        }.joined()
    }
}
