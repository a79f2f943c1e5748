import Foundation
import ProviderAPI

/// The messages a transport gives the connection failures that ``RequestExecutor`` treats
/// apart: a refused connection is retried once at most, and so is a server that took the request
/// and then sent nothing for the whole read timeout (a second silence of the same length is the
/// server's answer: four of them made a silent server take 121 s to fail); a host that cannot be
/// resolved and a TLS handshake that failed (an untrusted certificate, a name that does not
/// match, a server that does not speak TLS) never, since asking again gets the same answer.
///
/// A transport reports them as ``ProviderError/Code/network`` with exactly these messages.
enum NetworkFailure: Equatable {
    case refused
    case silent
    case unresolvedHost
    case tls
    case other

    static let refusedMessage = "connection refused"
    static let silentPrefix = "no data for "

    /// The message of a read timeout: `no data for 30 s`.
    static func silentMessage(_ timeout: Duration) -> String { silentPrefix + timeout.spokenLength }
    static let unresolvedPrefix = "cannot resolve host "

    static func unresolvedMessage(host: String) -> String { unresolvedPrefix + host }

    static let tlsPrefix = "TLS handshake failed"

    /// The message of a failed TLS handshake: what went wrong in a few words.
    static func tlsMessage(_ reason: String) -> String { tlsPrefix + ": " + reason }

    /// `text` without the source file paths and line numbers that BoringSSL puts in its errors
    /// (the build machine's checkout folders, nothing a user can act on).
    static func withoutSourcePaths(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "/") {
            result += rest[..<slash]
            // A path runs to the next white space, comma or closing bracket.
            let end = rest[slash...].firstIndex { $0 == " " || $0 == "," || $0 == ")" || $0 == "]" || $0 == "\n" } ?? rest.endIndex
            let path = rest[slash..<end]
            let isSource = [".cc:", ".c:", ".h:", ".swift:"].contains { path.contains($0) }
            result += isSource ? "…" : String(path)
            rest = rest[end...]
        }
        return result + rest
    }

    /// Which failure `error` reports.
    static func kind(of error: ProviderError) -> NetworkFailure {
        guard error.code == .network, let message = error.message else { return .other }
        if message == refusedMessage { return .refused }
        if message.hasPrefix(silentPrefix) { return .silent }
        if message.hasPrefix(unresolvedPrefix) { return .unresolvedHost }
        if message.hasPrefix(tlsPrefix) { return .tls }
        return .other
    }
}
