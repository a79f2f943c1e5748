import Foundation

/// Random tokens for scratch folders and unique names.
enum RandomName {
    /// 12 lowercase hex digits.
    static func token() -> String {
        let value = UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 12 - text.count)) + text
    }
}
