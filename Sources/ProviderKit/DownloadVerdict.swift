/// What to do with an answer, as ``DownloadRequestPlan/judge(_:request:)`` decides it. An answer
/// that must be refused is not a verdict: the judge throws a `ProviderError` for it.
public enum DownloadVerdict: Sendable, Hashable {
    /// Nothing is read and the sink is not touched (the precondition `ifNoneMatch` held).
    case notModified
    /// The sink already holds the whole content (`total` bytes): it finishes without a body.
    case alreadyWhole(total: Int64)
    /// The body is the content from `offset` up to `end` (exclusive; `nil` when the answer does not
    /// say): write it all. A resumed download (``DownloadRequestPlan/resumeFrom`` above 0 and
    /// `offset` equal to it) continues what the sink holds; any other body begins the sink anew.
    case take(offset: Int64, end: Int64?)
    /// The body holds more than was asked (a server that ignored the range, or answered wider): it
    /// starts at `bodyStart` in the content, and only the bytes `from..<to` are kept (`to` is `nil`
    /// when the range runs to an end nobody told); `total` is the content's size, if known.
    case cut(bodyStart: Int64, from: Int64, to: Int64?, total: Int64?)
    /// The answer is of other content than the bytes a resume would continue (a server that does
    /// not check the validator): drop it and ask again for the whole content
    /// (``DownloadRequestPlan/restart()``).
    case restart
    /// Not content: the adapter turns the answer into its error (and reads no body into the sink).
    case failure
}
