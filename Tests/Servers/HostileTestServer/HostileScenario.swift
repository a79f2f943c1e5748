import Foundation

/// How a ``HostileServer`` answers: a name for test output, and a routing closure from each
/// request to the bytes written back. The static members (in the `HostileScenario+…` files)
/// build the misbehaviours of each class; ``custom(_:_:)`` takes any closure.
public struct HostileScenario: Sendable {
    /// A short name for test output.
    public var name: String
    /// The answer to a request.
    public var route: @Sendable (HostileRequest, HostileContext) -> HostileResponse
    /// Whether a request whose connection closed before its body ended is routed too (marked
    /// ``HostileRequest/cut``), so a stateful scenario can keep what arrived of a cut upload.
    public var seesCutRequests = false

    /// A scenario answering with `route`.
    public init(_ name: String, route: @escaping @Sendable (HostileRequest, HostileContext) -> HostileResponse) {
        self.name = name
        self.route = route
    }

    /// A scenario answering with `route`.
    public static func custom(
        _ name: String, _ route: @escaping @Sendable (HostileRequest, HostileContext) -> HostileResponse
    ) -> HostileScenario {
        HostileScenario(name, route: route)
    }
}

/// What a route knows about the server answering.
public struct HostileContext: Sendable {
    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL
    /// The bound port.
    public var port: Int
    /// When the server started.
    public var started: ContinuousClock.Instant
    /// How long any misbehaviour may last.
    public var timeLimit: Duration

    /// `true` once the server has run for its time limit: endless answers (pages, bodies) end.
    public var isPastTimeLimit: Bool { ContinuousClock.now - started >= timeLimit }

    /// `http://127.0.0.1:PORT` followed by `path` (which starts with `/`).
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)" + path }
}
