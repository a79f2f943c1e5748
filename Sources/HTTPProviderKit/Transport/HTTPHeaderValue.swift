/// Readings of HTTP header values done on their bytes, for the headers read on every answer.
enum HTTPHeaderValue {
    /// Whether the comma-separated list `value` (RFC 9110 §5.6.1: elements with optional spaces
    /// or tabs around them, empty elements allowed) has an element equal to `token`, compared
    /// without regard to ASCII case: `listContains("none, Bytes", token: "bytes")` is true.
    ///
    /// Walks the value's UTF-8 once, with no substring, trimmed copy or lowercased copy per
    /// element (an `Accept-Ranges` reading that made them cost ~1 % of a copy of small files).
    /// `token` must be ASCII.
    static func listContains(_ value: String, token: String) -> Bool {
        var value = value
        var token = token
        return value.withUTF8 { bytes in
            token.withUTF8 { wanted in
                var index = 0
                let count = bytes.count
                while index <= count {
                    // One element: from here to the next comma or the end.
                    var end = index
                    while end < count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                    var lower = index
                    var upper = end
                    while lower < upper, isSpace(bytes[lower]) { lower += 1 }
                    while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
                    if upper - lower == wanted.count, equalIgnoringASCIICase(bytes, from: lower, wanted) { return true }
                    index = end + 1
                }
                return false
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func equalIgnoringASCIICase(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ wanted: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        for offset in 0..<wanted.count where lowered(bytes[start + offset]) != lowered(wanted[offset]) {
            return false
        }
        return true
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
