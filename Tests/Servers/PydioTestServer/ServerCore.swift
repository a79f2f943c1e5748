import Foundation
import NIOConcurrencyHelpers

/// Shared server internals: configuration, locked state, faults, bound port.
final class ServerCore: Sendable {
    let configuration: PydioTestServer.Configuration
    let state: NIOLockedValueBox<ServerState>
    let faults: PydioFaults
    /// Unix time the server started (the workspaces' `last_connection`).
    let started: Int64
    private let boundPort = NIOLockedValueBox(0)
    /// Background tasks held until ``runHeldTasks()`` (``PydioTestServer/Configuration/holdsBackgroundTasks``).
    private let heldTasks = NIOLockedValueBox<[@Sendable () -> Void]>([])

    init(configuration: PydioTestServer.Configuration) {
        self.configuration = configuration
        let now = UnixTime.now
        started = now
        let state = NIOLockedValueBox(ServerState(now: now))
        self.state = state
        faults = PydioFaults(
            onExpire: { state.withLockedValue { $0.sessions.expireAll() } },
            onCaptcha: { state.withLockedValue { $0.captcha.armEverywhere() } },
            word: { state.withLockedValue { $0.captcha.word } }
        )
    }

    /// Keeps `task` until ``runHeldTasks()``.
    func hold(_ task: @escaping @Sendable () -> Void) {
        heldTasks.withLockedValue { $0.append(task) }
    }

    /// Runs every held background task, in the order they were held; returns how many ran.
    func runHeldTasks() -> Int {
        let tasks = heldTasks.withLockedValue { held in
            defer { held.removeAll() }
            return held
        }
        for task in tasks { task() }
        return tasks.count
    }

    var port: Int {
        get { boundPort.withLockedValue { $0 } }
        set { boundPort.withLockedValue { $0 = newValue } }
    }

    /// `/pydio` (or `""` for an empty base path).
    var basePrefix: String {
        let trimmed = configuration.basePath.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        return trimmed.isEmpty ? "" : "/" + trimmed
    }

    /// `http://127.0.0.1:PORT`
    var rootURL: String { "http://\(configuration.host):\(port)" }

    /// Where public links and minisites live: the root, or the base without its slash.
    var publicRootURL: String { configuration.publicLinksBelowBase ? rootURL + basePrefix : rootURL }

    /// `http://127.0.0.1:PORT/pydio/`
    var baseURL: String { rootURL + basePrefix + "/" }

    /// Runs `body` with exclusive access to the state.
    func withState<T>(_ body: (inout ServerState) throws -> T) rethrows -> T {
        try state.withLockedValue { try body(&$0) }
    }
}
