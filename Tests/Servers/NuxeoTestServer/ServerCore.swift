import Foundation
import NIOConcurrencyHelpers

/// Shared server internals: configuration, locked state, faults, bound port.
final class ServerCore: Sendable {
    let configuration: NuxeoTestServer.Configuration
    let state = NIOLockedValueBox(ServerState())
    let faults: NuxeoFaults
    private let boundPort = NIOLockedValueBox(0)

    init(configuration: NuxeoTestServer.Configuration) {
        self.configuration = configuration
        let state = self.state
        self.faults = NuxeoFaults(onRevokeAll: { state.withLockedValue { $0.tokens.revokeAll() } })
    }

    var port: Int {
        get { boundPort.withLockedValue { $0 } }
        set { boundPort.withLockedValue { $0 = newValue } }
    }

    /// `/nuxeo` (or `""` for an empty context path).
    var contextPrefix: String {
        let trimmed = configuration.contextPath.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        return trimmed.isEmpty ? "" : "/" + trimmed
    }

    /// `http://127.0.0.1:PORT/nuxeo`
    func baseURL(host: String? = nil) -> String {
        "http://\(host ?? configuration.host):\(port)\(contextPrefix)"
    }

    /// Runs `body` with exclusive access to the state.
    func withState<T>(_ body: (inout ServerState) throws -> T) rethrows -> T {
        try state.withLockedValue { try body(&$0) }
    }
}
