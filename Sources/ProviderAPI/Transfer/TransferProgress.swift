import Foundation

/// How far a transfer has got.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far, including bytes a resumed download already had.
    public var completed: Int64
    /// The total, when known.
    public var expected: Int64?

    /// Creates a progress value.
    public init(completed: Int64, expected: Int64?) {
        self.completed = completed
        self.expected = expected
    }

    /// `completed / expected`, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let expected, expected > 0 else { return expected == 0 ? 1 : nil }
        return Double(completed) / Double(expected)
    }

    /// A progress handler and the `AsyncStream` it feeds, for callers that prefer to iterate.
    ///
    /// ```swift
    /// let (updates, handler) = TransferProgress.makeStream()
    /// async let result = provider.download(path, to: sink, options: .init(progress: handler))
    /// for await p in updates { print(p.completed) }
    /// ```
    public static func makeStream() -> (AsyncStream<TransferProgress>, ProgressHandler) {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(64))
        return (stream, { progress in
            continuation.yield(progress)
            if let expected = progress.expected, progress.completed >= expected { continuation.finish() }
        })
    }
}

/// Receives progress updates; called from the transferring task, in order, with non-decreasing values.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void
