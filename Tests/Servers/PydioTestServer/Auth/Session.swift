import Foundation

/// One PHP session (cookie `AjaXplorer`).
struct Session: Sendable {
    /// The logged-in user, `nil` when anonymous.
    var user: String?
    /// Every secure token issued in this session (`PYDIO_SECURE_TOKENS`).
    var tokens: Set<String> = []
    /// The sticky workspace (`switch_repository`).
    var repository = "ajxp_home"
    /// The word of the last captcha image served in this session (Securimage keeps it in
    /// `$_SESSION`): a login's `captcha_code` is checked against it, and only it.
    var captchaWord: String?
}
