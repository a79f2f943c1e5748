import Foundation
import ProviderAPI

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
