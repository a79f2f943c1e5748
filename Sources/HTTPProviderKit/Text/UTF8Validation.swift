/// Well-formed UTF-8 as the byte readers (JSON, XML) check it: Unicode table 3-7 (RFC 3629), so
/// no overlong forms, no surrogates, nothing above U+10FFFF.
///
/// The readers step over ASCII themselves and call ``sequence(in:at:end:)`` at each byte from
/// 0x80 up.
package enum UTF8Validation {
    /// What stands at a byte from 0x80 up.
    package enum Sequence: Equatable, Sendable {
        /// A well-formed sequence; the index after it.
        case valid(next: Int)
        /// A byte that starts no sequence (a continuation byte, 0xC0, 0xC1, 0xF5 and up).
        case invalidLead
        /// A lead byte whose sequence does not fit before `end`.
        case truncated
        /// A lead byte followed by a byte that cannot continue it.
        case invalidContinuation
    }

    /// The sequence starting at `index` (whose byte is 0x80 or more) in `bytes[..<end]`.
    package static func sequence(in bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Sequence {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return .invalidLead
        }
        guard end - index >= length else { return .truncated }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { return .invalidContinuation }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return .invalidContinuation }
        return .valid(next: index + length)
    }

    /// Whether all of `bytes` is well-formed UTF-8.
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            guard case .valid(let next) = sequence(in: bytes, at: index, end: bytes.count) else { return false }
            index = next
        }
        return true
    }
}
