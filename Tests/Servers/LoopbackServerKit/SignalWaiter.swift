import Dispatch
import Foundation

/// Suspends until the process receives one of the given signals, for loopback servers run as programs.
public enum SignalWaiter {
    /// Returns once one of `signals` (such as SIGTERM) arrives; the signals' default actions are turned off.
    public static func wait(for signals: [Int32]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "strata.loopback-server.signals")
            queue.async {
                let resumed = Box()
                var sources: [any DispatchSourceSignal] = []
                for number in signals {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler {
                        guard !resumed.done else { return }
                        resumed.done = true
                        continuation.resume()
                    }
                    source.resume()
                    sources.append(source)
                }
                Retainer.keep(sources)
            }
        }
    }

    /// Accessed only on the signal queue.
    private final class Box: @unchecked Sendable {
        var done = false
    }

    /// Keeps the signal sources alive for the life of the process.
    private enum Retainer {
        nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
        static func keep(_ new: [any DispatchSourceSignal]) { sources.append(contentsOf: new) }
    }
}
