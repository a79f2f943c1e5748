import Foundation
import NIOConcurrencyHelpers

/// Shared server internals: configuration, locked state, faults, bound port.
final class ServerCore: Sendable {
    let configuration: NextcloudTestServer.Configuration
    let state = NIOLockedValueBox(ServerState())
    let faults = NextcloudFaults()
    /// The instance id in every `oc:id` (`ocnq90xhpk22`).
    let instanceID = Identifiers.instanceID()
    private let boundPort = NIOLockedValueBox(0)

    init(configuration: NextcloudTestServer.Configuration) {
        self.configuration = configuration
    }

    var flavor: NextcloudTestServer.Configuration.Flavor { configuration.flavor }
    var isNextcloud: Bool { configuration.flavor == .nextcloud }

    var port: Int {
        get { boundPort.withLockedValue { $0 } }
        set { boundPort.withLockedValue { $0 = newValue } }
    }

    /// `http://127.0.0.1:PORT`
    var rootURL: String { "http://\(configuration.host):\(port)" }

    /// Runs `body` with exclusive access to the state.
    func withState<T>(_ body: (inout ServerState) throws -> T) rethrows -> T {
        try state.withLockedValue { try body(&$0) }
    }

    /// Whether `name` is a configured user.
    func userExists(_ name: String) -> Bool { configuration.users[name] != nil }

    static var now: Int64 { Int64(Date().timeIntervalSince1970) }
}
