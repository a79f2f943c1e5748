import Foundation
import NIOConcurrencyHelpers

/// Fault hooks of a ``PydioTestServer``. Thread-safe.
public final class PydioFaults: Sendable {
    struct FailRule: Sendable {
        var status: Int
        var retryAfter: Int?
        var remaining: Int
        var matching: @Sendable (String) -> Bool
    }

    struct State: Sendable {
        var failRules: [FailRule] = []
        var dropAfterBytes: Int?
    }

    private let state = NIOLockedValueBox(State())
    private let onExpire: @Sendable () -> Void
    private let onCaptcha: @Sendable () -> Void
    private let word: @Sendable () -> String

    init(
        onExpire: @escaping @Sendable () -> Void,
        onCaptcha: @escaping @Sendable () -> Void,
        word: @escaping @Sendable () -> String
    ) {
        self.onExpire = onExpire
        self.onCaptcha = onCaptcha
        self.word = word
    }

    /// Every session dies now: the next call with an old cookie answers
    /// `<require_auth/>` (a remember-me cookie still logs in again).
    public func expireSessions() {
        onExpire()
    }

    /// Arms the captcha for every address, as after 3 failed logins:
    /// `get_seed` answers `{"seed":-1,"captcha":true}` and `login` answers `-4`
    /// until it carries the right password and, as `captcha_code`, the word of
    /// the image served last in the same session (``captchaWord``).
    public func demandCaptcha() {
        onCaptcha()
    }

    /// The word of the captcha image served last. Each `get_captcha` draws a
    /// new one and keeps it in the session that asked; a login's answer is
    /// checked against its own session's word.
    public var captchaWord: String { word() }

    /// The next `count` requests whose action satisfies `matching` are answered
    /// with `status` and an empty body, plus `Retry-After` when `retryAfter` is
    /// given. The action is `get_action`/`action` (`"ping"` when absent), or
    /// `"public"` for `/public/<hash>/…` downloads.
    public func failNext(
        status: Int,
        retryAfter: Int? = nil,
        count: Int = 1,
        matching: @escaping @Sendable (_ action: String) -> Bool = { _ in true }
    ) {
        state.withLockedValue {
            $0.failRules.append(FailRule(status: status, retryAfter: retryAfter, remaining: max(count, 1), matching: matching))
        }
    }

    /// The next download (`download` or a public link) sends its headers with
    /// the full `Content-Length`, then `afterBytes` body bytes, then closes
    /// the connection.
    public func dropDownloadConnection(afterBytes: Int) {
        state.withLockedValue { $0.dropAfterBytes = max(afterBytes, 0) }
    }

    /// Clears every pending fault (expired sessions stay expired, an armed
    /// captcha stays armed).
    public func reset() {
        state.withLockedValue { $0 = State() }
    }

    // MARK: - Consumed by the server

    func takeFailure(action: String) -> (status: Int, retryAfter: Int?)? {
        state.withLockedValue { state in
            guard let index = state.failRules.firstIndex(where: { $0.matching(action) }) else { return nil }
            let rule = state.failRules[index]
            state.failRules[index].remaining -= 1
            if state.failRules[index].remaining <= 0 { state.failRules.remove(at: index) }
            return (rule.status, rule.retryAfter)
        }
    }

    func takeDownloadDrop() -> Int? {
        state.withLockedValue { state in
            defer { state.dropAfterBytes = nil }
            return state.dropAfterBytes
        }
    }
}
