import Foundation
import StrataProcessKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `strata-cache-torture` child process, found next to the test bundle.
struct TortureProcess {
    let process: ChildProcess
    let log: URL

    /// The torture executable; a missing one is an error (the tests fail, never skip).
    static func executable() throws -> URL {
        let name = "strata-cache-torture"
        var folders: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw TortureError("\(name) not found next to the tests (looked in \(folders.map(\.path))); build the package's executables")
    }

    /// Starts `arguments` with a fresh log file, appended as the last argument.
    init(_ arguments: [String], log: URL) throws {
        self.log = log
        process = try ChildProcess(executable: try Self.executable(), arguments: arguments + [log.path], output: .null, error: .inherit)
    }

    /// The log's lines so far.
    func lines() -> [String] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits until the child logged at least `count` lines (or exited).
    func waitForLines(_ count: Int, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while lines().count < count {
            guard process.isRunning else { return }
            guard ContinuousClock.now < deadline else { throw TortureError("the child logged nothing in \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Kills the child with SIGKILL and waits for it; returns how it ended (by itself, when it
    /// was done before the signal).
    @discardableResult
    func kill() -> ChildProcess.Termination {
        process.signal(SIGKILL)
        return process.waitUntilExit()
    }

    /// Waits for the child to exit by itself; returns its status.
    func wait() async -> Int32 {
        await process.terminated().status
    }
}

struct TortureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
