import Foundation
import StrataProcessKit

/// A `strata` run that a test talks to while it runs: its output (stdout and stderr merged) is read
/// as it comes, so the test can wait for a line (the login URL) and act before the run ends.
final class LiveStrata: @unchecked Sendable {
    private let child: ChildProcess
    private let lock = NSLock()
    private var text = ""
    private var ended = false
    private var waiters: [(pattern: String, continuation: CheckedContinuation<String?, Never>)] = []

    /// Starts strata with `arguments` and `environment` (on top of ``StrataProcess/environment(_:)``),
    /// killed after `limit` seconds if it is still running.
    init(_ arguments: [String], environment: [String: String?], limit: TimeInterval = 120) throws {
        child = try ChildProcess(
            executable: try StrataProcess.binary(), arguments: arguments, environment: StrataProcess.environment(environment),
            output: .pipe, error: .output)
        let child = self.child
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) { if child.isRunning { _ = child.signal(SIGKILL) } }
        DispatchQueue.global().async { [self] in
            while true {
                let piece = child.readPiece()
                lock.lock()
                if piece.isEmpty { ended = true } else { text += String(decoding: piece, as: UTF8.self) }
                let ready = takeReady()
                lock.unlock()
                for (continuation, match) in ready { continuation.resume(returning: match) }
                if piece.isEmpty { return }
            }
        }
    }

    /// The waiters whose pattern the output now matches, or all of them once the output ended. Under `lock`.
    private func takeReady() -> [(CheckedContinuation<String?, Never>, String?)] {
        var ready: [(CheckedContinuation<String?, Never>, String?)] = []
        waiters.removeAll { waiter in
            let match = Self.match(waiter.pattern, in: text)
            guard match != nil || ended else { return false }
            ready.append((waiter.continuation, match))
            return true
        }
        return ready
    }

    private static func match(_ pattern: String, in text: String) -> String? {
        text.range(of: pattern, options: .regularExpression).map { String(text[$0]) }
    }

    /// The first text matching the regular expression `pattern` in the output, once it appears;
    /// `nil` when the run ends without it.
    func wait(for pattern: String) async -> String? {
        await withCheckedContinuation { continuation in
            lock.lock()
            waiters.append((pattern, continuation))
            let ready = takeReady()
            lock.unlock()
            for (continuation, match) in ready { continuation.resume(returning: match) }
        }
    }

    /// The login URL the run prints (`…/index.php/login/v2/flow/TOKEN`).
    func loginURL() async -> URL? {
        await wait(for: "https?://[^ \\n]+/index\\.php/login/v2/flow/[A-Za-z0-9]+").flatMap(URL.init(string:))
    }

    /// Sends `signal` to the run.
    func signal(_ signal: Int32) -> Bool { child.signal(signal) }

    /// Waits for the end of the run: how it ended and all it printed.
    func finish() async -> (termination: ChildProcess.Termination, output: String) {
        _ = await wait(for: "(?!)")
        let termination = await child.terminated()
        return (termination, lock.withLock { text })
    }
}
