import Foundation

/// `BruteForceHelper`: failed logins per client address; the 3rd failure
/// arms the captcha for that address until a login with the right word succeeds.
///
/// As Securimage does, each `get_captcha` draws a new word and keeps it in the session that
/// fetched the image; a login is checked against its own session's word only.
struct CaptchaGuard: Sendable {
    private var failures: [String: Int] = [:]
    private var armed: Set<String> = []
    private var armedEverywhere = false
    /// The word of the image served last, in whichever session (for tests to read).
    private(set) var word = RandomToken.word(5)

    /// Draws the word of a new image.
    mutating func draw() -> String {
        word = RandomToken.word(5)
        return word
    }

    func isArmed(_ address: String) -> Bool {
        armedEverywhere || armed.contains(address)
    }

    /// Counts a failure; returns `true` when the captcha is (now) armed.
    mutating func fail(_ address: String) -> Bool {
        failures[address, default: 0] += 1
        if failures[address, default: 0] >= 3, !isArmed(address) {
            armed.insert(address)
        }
        return isArmed(address)
    }

    /// A successful login clears the address's count and disarms the captcha.
    mutating func succeed(_ address: String) {
        failures[address] = nil
        armed.remove(address)
        armedEverywhere = false
    }

    mutating func armEverywhere() {
        armedEverywhere = true
    }
}
