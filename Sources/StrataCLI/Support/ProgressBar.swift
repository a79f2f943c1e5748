import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on stderr, drawn only when stdout is a terminal, at most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drawn = false
    }

    private let label: String
    private let started = ContinuousClock.now
    private let state = NIOLockedValueBox(State())
    let enabled: Bool

    init(label: String, enabled: Bool = true) {
        self.label = TerminalText.escape(label)
        self.enabled = enabled && isatty(STDOUT_FILENO) == 1
    }

    var handler: ProgressHandler? {
        guard enabled else { return nil }
        return { [self] progress in self.update(progress) }
    }

    func update(_ progress: TransferProgress) {
        let now = ContinuousClock.now
        let line: String? = state.withLockedValue { state in
            let done = progress.expected.map { progress.completed >= $0 } ?? false
            if let last = state.lastDraw, now - last < .milliseconds(100), !done { return nil }
            state.lastDraw = now
            state.drawn = true
            return render(progress, elapsed: now - started)
        }
        if let line { Output.standardError(Data(line.utf8)) }
    }

    func finish() {
        if state.withLockedValue({ $0.drawn }) { Output.standardError(Data("\n".utf8)) }
    }

    private func render(_ progress: TransferProgress, elapsed: Duration) -> String {
        let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 0.001)
        // Checked arithmetic: the counts come from a transfer a server can lie to.
        let perSecond = Double(progress.completed) / seconds
        let rate = Output.size(perSecond.isFinite && perSecond < 9e18 ? Int64(max(0, perSecond)) : nil) + "/s"
        let width = 30
        var bar = ""
        var percent = ""
        if let raw = progress.fractionCompleted, raw.isFinite {
            let fraction = min(max(raw, 0), 1)
            let filled = Int((fraction * Double(width)).rounded(.down))
            bar = "[" + String(repeating: "#", count: min(width, filled)) + String(repeating: " ", count: max(0, width - filled)) + "] "
            percent = "\(Int(fraction * 100))% "
        }
        let total = progress.expected.map { " / " + Output.size($0) } ?? ""
        return "\r\(label) \(bar)\(percent)\(Output.size(progress.completed))\(total) \(rate)\u{1B}[K"
    }
}
