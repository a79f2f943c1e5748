import Foundation

/// Random identifiers in the alphabets pydio uses.
enum RandomToken {
    private static let alphanumeric = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let sessionAlphabet = Array("abcdefghijklmnopqrstuv0123456789")
    private static let hexDigits = Array("0123456789abcdef")

    /// A 32-character `[A-Za-z0-9]` secure token.
    static func secureToken() -> String { make(32, from: alphanumeric) }

    /// A 26-character PHP session id.
    static func sessionID() -> String { make(26, from: sessionAlphabet) }

    /// `count` lowercase hex digits.
    static func hex(_ count: Int) -> String { make(count, from: hexDigits) }

    /// A word of `count` lowercase letters without look-alikes (captcha).
    static func word(_ count: Int) -> String { make(count, from: Array("abcdefghjkmnpqrstuvwxyz")) }

    private static func make(_ count: Int, from alphabet: [Character]) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
