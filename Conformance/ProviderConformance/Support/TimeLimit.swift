import Foundation

/// Runs work that must finish within a time limit.
enum TimeLimit {
    private enum Finish<Value: Sendable>: Sendable {
        case value(Value)
        case timedOut
    }

    /// Runs `operation`, failing the case with `what` if it takes longer than `limit` (the operation is then cancelled).
    static func run<Value: Sendable>(
        _ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Finish<Value>.self) { group in
            group.addTask { .value(try await operation()) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return .timedOut
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw ConformanceFailure("\(what) did not finish") }
            switch first {
            case .value(let value): return value
            case .timedOut: throw ConformanceFailure("\(what) did not finish within \(limit)")
            }
        }
    }
}
