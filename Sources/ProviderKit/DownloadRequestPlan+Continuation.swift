import Foundation
import ProviderAPI

extension DownloadRequestPlan {
    /// The request that continues a whole-content body cut (by the network, or short of its size)
    /// at `position`: the rest of the content from there, under `validator` (sent as HTTP
    /// `If-Range`). `nil` when the cut must stand: a range download, `resumes` already at
    /// ``maxResumes``, a server that has not shown it serves ranges (`rangesShown`), or content
    /// without a strong validator (``isStrong(_:)``).
    public func continuation(
        at position: Int64, resumes: Int, rangesShown: Bool, validator: String?
    ) -> (range: ByteRange, validator: String)? {
        guard isWholeFile, resumes < maxResumes, rangesShown, let validator, Self.isStrong(validator) else { return nil }
        return (.from(position), validator)
    }

    /// What the answer to a ``continuation(at:resumes:rangesShown:validator:)`` request holds: the
    /// rest of the same content, from exactly `position` to its end.
    ///
    /// - Parameters:
    ///   - answer: the server's answer.
    ///   - position: where the body was cut.
    ///   - firstETag: the entity tag of the first answer, if it had one (the content must keep it).
    ///   - validator: the validator the continuation was asked under.
    ///   - totals: the sizes known for the whole content (another total is another content).
    ///   - cut: the error that cut the body; it stands when the range is not served.
    /// - Returns: the range the answer serves, or `nil` when the answer is a failure the adapter
    ///   turns into its own error.
    /// - Throws: `ProviderError.Code.conflict` when the content changed meanwhile; `cut` when the
    ///   server does not serve the range (a `2xx` other than partial content, or "range not
    ///   satisfiable"); `ProviderError.Code.invalidResponse` for a range that is not the rest.
    ///   The answer's body must then be dropped.
    public func judgeContinuation(
        _ answer: DownloadAnswer, at position: Int64, firstETag: String?, validator: String, totals: [Int64], cut: ProviderError
    ) throws -> ServedRange? {
        let request = cut.request
        let changed = ProviderError(
            .conflict, "the file changed on the server while it was downloaded", httpStatus: answer.status, request: request)
        let differs = firstETag.map { kept in answer.etag.map { $0 != kept } ?? false } ?? Self.contradicts(validator, answer.validator)
        let served: ServedRange?
        switch answer.kind {
        case .whole where differs, .partial where differs: throw changed
        case .partial(let range) where !answer.isErrorPage: served = range
        case .whole, .partial, .otherSuccess, .rangeNotSatisfiable: throw cut  // the range was not served: the cut stands
        case .notModified, .failure: return nil
        }
        let range = try Self.checked(served, length: answer.length, request: request)
        // Another total is another content (checked once the range starts where it was asked).
        if range.start == position, let total = range.total, totals.contains(where: { $0 != total }) { throw changed }
        try Self.requireRest(range, from: position, request: request)
        return range
    }
}
