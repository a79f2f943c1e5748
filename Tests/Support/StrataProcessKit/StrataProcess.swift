import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run of the `strata` binary left behind.
public struct StrataRun: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when the process died of one.
    public var status: Int32
    /// Whether the process died of a signal other than the test's own SIGTERM (a trap is SIGILL/SIGTRAP: exit 132/133 in a shell).
    public var trapped: Bool
    /// Whether the test had to kill it for running past its limit.
    public var killed: Bool
    /// Standard output, raw (on a terminal: everything the terminal showed).
    public var output: Data
    /// Standard error, as text (on a terminal: the same as the output).
    public var error: String

    /// Standard output as text.
    public var outputText: String { String(decoding: output, as: UTF8.self) }

    public var description: String {
        "exit \(status)\(trapped ? " (signal)" : "")\(killed ? " (killed)" : ""); stdout: \(outputText); stderr: \(error)"
    }
}

/// Runs the built `strata` binary as a user would, for tests of the command line.
///
/// The blocking reads and the wait happen on a dispatch thread: loopback servers answering the
/// child run on NIO's threads and Swift's pool, which a blocked test thread must not starve.
public enum StrataProcess {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The `strata` binary built next to the test bundle.
    public static func binary() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("strata")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw Missing(description: "the strata binary is not next to \(CommandLine.arguments[0])")
    }

    /// The child's environment: this process's, with `HOME` in the temporary folder, no
    /// `STRATA_USER`/`STRATA_TOKEN`, no backtraces (a trap ends at once), then `overrides`
    /// (a `nil` value removes the variable).
    public static func environment(_ overrides: [String: String?]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = FileManager.default.temporaryDirectory.path
        environment.removeValue(forKey: "STRATA_USER")
        environment.removeValue(forKey: "STRATA_TOKEN")
        environment["SWIFT_BACKTRACE"] = "enable=no"
        for (name, value) in overrides {
            if let value { environment[name] = value } else { environment.removeValue(forKey: name) }
        }
        return environment
    }

    /// Runs strata with `arguments`, stdin from /dev/null, killing it after `limit` seconds.
    public static func run(
        _ arguments: [String], environment overrides: [String: String?] = [:], directory: URL? = nil, limit: TimeInterval = 120
    ) async throws -> StrataRun {
        let binary = try binary()
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("strata-run-\(UUID().uuidString).err")
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let child = try ChildProcess(
            executable: binary, arguments: arguments, environment: environment(overrides), directory: directory,
            output: .pipe, error: .file(errorURL))
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let killed = watch(child, limit: limit)
                let data = child.readToEnd()
                let termination = child.waitUntilExit()
                killed.timer.cancel()
                let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
                continuation.resume(
                    returning: result(termination, killed: killed.flag, output: data, error: String(decoding: errorData, as: UTF8.self)))
            }
        }
    }

    /// Runs strata on a terminal (util-linux `script` gives it one), killing it after `limit`
    /// seconds. Each time the output shows `prompt` once more, `answer` is asked (with the
    /// prompt's number, from 1) what to type there. Output and errors arrive merged.
    public static func runOnTerminal(
        _ arguments: [String], environment overrides: [String: String?] = [:], prompt: String, limit: TimeInterval = 120,
        answer: @escaping @Sendable (Int) -> String
    ) async throws -> StrataRun {
        let binary = try binary()
        let command = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let child = try ChildProcess(
            executable: URL(fileURLWithPath: "/usr/bin/script"), arguments: ["-qefc", command, "/dev/null"],
            environment: environment(overrides), input: .pipe, output: .pipe, error: .output)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let killed = watch(child, limit: limit)
                var data = Data()
                var answered = 0
                while true {
                    let piece = child.readPiece()
                    if piece.isEmpty { break }
                    data.append(piece)
                    let prompts = String(decoding: data, as: UTF8.self).components(separatedBy: prompt).count - 1
                    while answered < prompts {
                        answered += 1
                        child.write(Data((answer(answered) + "\n").utf8))
                    }
                }
                let termination = child.waitUntilExit()
                killed.timer.cancel()
                continuation.resume(
                    returning: result(termination, killed: killed.flag, output: data, error: String(decoding: data, as: UTF8.self)))
            }
        }
    }

    /// Sends SIGTERM to `child` after `limit` seconds unless the returned timer is cancelled first.
    private static func watch(_ child: ChildProcess, limit: TimeInterval) -> (timer: DispatchWorkItem, flag: NIOLockedValueBox<Bool>) {
        let killed = NIOLockedValueBox(false)
        let timer = DispatchWorkItem {
            if child.isRunning, child.signal(SIGTERM) {
                killed.withLockedValue { $0 = true }
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: timer)
        return (timer, killed)
    }

    private static func result(_ termination: ChildProcess.Termination, killed: NIOLockedValueBox<Bool>, output: Data, error: String) -> StrataRun {
        StrataRun(
            status: termination.status,
            trapped: termination.signaled && termination.status != SIGTERM,
            killed: killed.withLockedValue { $0 }, output: output, error: error)
    }
}
