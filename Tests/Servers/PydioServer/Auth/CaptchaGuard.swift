import Foundation

/// `BruteForceHelper`: failed logins per client address; the 3rd failure
/// arms the captcha for that address until a login with the right word succeeds.
struct CaptchaGuard: Sendable {
    private var failures: [String: Int] = [:]
    private var armed: Set<String> = []
    private var armedEverywhere = false
    /// The word the served image stands for.
    private(set) var word = RandomToken.word(5)

    func isArmed(_ address: String) -> Bool {
        armedEverywhere || armed.contains(address)
    }

    /// Counts a failure; returns `true` when the captcha is (now) armed.
    mutating func fail(_ address: String) -> Bool {
        failures[address, default: 0] += 1
        if failures[address, default: 0] >= 3, !isArmed(address) {
            armed.insert(address)
            word = RandomToken.word(5)
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
        word = RandomToken.word(5)
    }
}
