import Foundation
import StrataProcessKit

/// Runs the built `strata` binary as a user would, against a hostile server.
enum StrataCLI {
    typealias Run = StrataRun

    /// Runs strata with `arguments` (the password in `STRATA_PASSWORD`), killing it after `limit`.
    static func run(
        _ arguments: [String], password: String = Hostile.password, directory: URL? = nil, limit: TimeInterval = 120
    ) async throws -> Run {
        try await StrataProcess.run(arguments, environment: ["STRATA_PASSWORD": password], directory: directory, limit: limit)
    }
}
