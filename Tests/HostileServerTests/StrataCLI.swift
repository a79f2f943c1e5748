import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Runs the built `strata` binary as a user would, against a hostile server.
enum StrataCLI {
    /// What a run left behind.
    struct Run: Sendable {
        /// The exit status, or the signal number when ``trapped``.
        var status: Int32
        /// Whether the process died of a signal other than the test's own SIGTERM (a trap is SIGILL/SIGTRAP: exit 132/133 in a shell).
        var trapped: Bool
        /// Whether the test had to kill it for running past its limit.
        var killed: Bool
        /// Standard output, raw.
        var output: Data
        /// Standard error, as text.
        var error: String

        /// Standard output as text.
        var outputText: String { String(decoding: output, as: UTF8.self) }
    }

    /// The `strata` binary built next to the test bundle.
    static func binary() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("strata")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw ProviderError(.notFound, "the strata binary is not next to \(CommandLine.arguments[0])")
    }

    /// Runs strata with `arguments` (the password in `STRATA_PASSWORD`), killing it after `limit`.
    ///
    /// The blocking reads and the wait happen on a dispatch thread: the hostile server answering
    /// the child runs on NIO's threads and Swift's pool, which a blocked test thread must not starve.
    static func run(
        _ arguments: [String], password: String = Hostile.password, directory: URL? = nil, limit: TimeInterval = 60
    ) async throws -> Run {
        let binary = try binary()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = binary
                process.arguments = arguments
                var environment = ProcessInfo.processInfo.environment
                environment["STRATA_PASSWORD"] = password
                environment["HOME"] = FileManager.default.temporaryDirectory.path
                environment.removeValue(forKey: "STRATA_USER")
                environment.removeValue(forKey: "STRATA_TOKEN")
                // A trap ends at once instead of spending the limit on a backtrace.
                environment["SWIFT_BACKTRACE"] = "enable=no"
                process.environment = environment
                if let directory { process.currentDirectoryURL = directory }
                let output = Pipe()
                let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("strata-hostile-\(UUID().uuidString).err")
                _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
                defer { try? FileManager.default.removeItem(at: errorURL) }
                process.standardOutput = output
                process.standardInput = FileHandle.nullDevice
                do {
                    process.standardError = try FileHandle(forWritingTo: errorURL)
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let killed = NIOLockedValueBox(false)
                let timer = DispatchWorkItem {
                    if process.isRunning {
                        killed.withLockedValue { $0 = true }
                        process.terminate()
                    }
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: timer)
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                timer.cancel()
                let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
                continuation.resume(returning: Run(
                    status: process.terminationStatus, trapped: process.terminationReason == .uncaughtSignal && process.terminationStatus != SIGTERM,
                    killed: killed.withLockedValue { $0 }, output: data, error: String(decoding: errorData, as: UTF8.self)))
            }
        }
    }
}
