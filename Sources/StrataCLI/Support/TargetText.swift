import Foundation
import ProviderAPI

/// How a command-line target is echoed back: never with the password a `user:password@` in it carries.
enum TargetText {
    /// The range of the password in `target`'s user info (`scheme://user:password@host/…`, or
    /// `user:password@host/…` without a scheme), whether or not the rest parses as a URL.
    static func passwordRange(in target: String) -> Range<String.Index>? {
        var start = target.startIndex
        if let scheme = target.range(of: "://") { start = scheme.upperBound }
        let authorityEnd = target[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? target.endIndex
        let authority = target[start..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return target.index(after: colon)..<at
    }

    /// Whether `target` carries a password in its user info.
    static func hasPassword(_ target: String) -> Bool {
        passwordRange(in: target) != nil
    }

    /// `target` with its password (if any) replaced by `<redacted>`, and any other secret the
    /// ``Redactor`` knows (a token in the query) masked, ready to print.
    static func redacted(_ target: String) -> String {
        var text = target
        if let range = passwordRange(in: text) { text.replaceSubrange(range, with: Redactor.mask) }
        return Redactor.redact(text)
    }

    /// The warning printed on stderr for a target with a password in it.
    static func passwordWarning(_ target: String) -> String {
        "strata: warning: the password in \(redacted(target)) is visible to other users in the process list, and is not used: "
            + "give it in STRATA_PASSWORD or --password-file"
    }

    /// The `file` URL of a target written as a local path (`/tmp/x`, `./x`, `../x`, `.`, `..`), which
    /// the local adapter serves; `nil` for anything else (a URL, a saved remote).
    static func localPathURL(_ target: String) -> URL? {
        guard target.hasPrefix("/") || target.hasPrefix("./") || target.hasPrefix("../") || target == "." || target == ".." else {
            return nil
        }
        return URL(fileURLWithPath: target).standardizedFileURL
    }
}
