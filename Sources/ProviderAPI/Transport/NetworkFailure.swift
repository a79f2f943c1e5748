import Foundation

/// The messages a transport gives the connection failures that ``RequestExecutor`` treats
/// apart: a refused connection is retried once at most, a host that cannot be resolved never.
///
/// A transport reports them as ``ProviderError/Code/network`` with exactly these messages.
enum NetworkFailure: Equatable {
    case refused
    case unresolvedHost
    case other

    static let refusedMessage = "connection refused"
    static let unresolvedPrefix = "cannot resolve host "

    static func unresolvedMessage(host: String) -> String { unresolvedPrefix + host }

    /// Which failure `error` reports.
    static func kind(of error: ProviderError) -> NetworkFailure {
        guard error.code == .network, let message = error.message else { return .other }
        if message == refusedMessage { return .refused }
        if message.hasPrefix(unresolvedPrefix) { return .unresolvedHost }
        return .other
    }
}

extension Duration {
    /// The duration for messages: `30 s`, `1.5 s`, or `250 ms` below a second.
    var spokenLength: String {
        let millis = nanosecondsClamped / 1_000_000
        if millis < 1000 { return "\(millis) ms" }
        if millis % 1000 == 0 { return "\(millis / 1000) s" }
        return String(format: "%.1f s", Double(millis) / 1000)
    }

    /// Seconds with one decimal, for retry notices: `0.4 s`.
    var spokenSeconds: String {
        String(format: "%.1f s", Double(nanosecondsClamped) / 1e9)
    }
}
