import Foundation
import NIOConcurrencyHelpers

/// Fault hooks of a ``NuxeoTestServer``. Thread-safe; each fault is one-shot
/// unless its documentation says otherwise.
public final class NuxeoFaults: Sendable {
    struct FailRule: Sendable {
        var status: Int
        var retryAfter: Int?
        var remaining: Int
        var matching: @Sendable (String, String) -> Bool
    }

    struct State: Sendable {
        var failRules: [FailRule] = []
        var dropAfterBytes: Int?
        var lostChunkIndex: Int?
        var redirectHost: String?
        var listingContradiction: ListingContradiction?
    }

    /// A `@children` page that contradicts itself, as a broken or hostile server sends it.
    public enum ListingContradiction: Sendable, Hashable {
        /// `resultsCount` (and `numberOfPages`) count the folder's children, and no entry is sent.
        case countWithoutEntries
        /// Only the first entry of the page is sent, with `isNextPageAvailable: true` and
        /// `resultsCount: -2`: a short page that says another follows.
        case shortPageSaysMore
    }

    private let state = NIOLockedValueBox(State())
    private let onRevokeAll: @Sendable () -> Void

    init(onRevokeAll: @escaping @Sendable () -> Void) {
        self.onRevokeAll = onRevokeAll
    }

    /// Every token issued so far stops working at once (the next use gets the
    /// HTML 401), as if revoked server-side. New acquisitions still work.
    public func revokeAllTokens() {
        onRevokeAll()
    }

    /// The next `count` requests for which `matching(method, path)` is true
    /// (path percent-encoded as received, without the query) are answered with
    /// `status`: a JSON `exception` body (the HTML page for 401), plus
    /// `Retry-After` when `retryAfter` is given.
    public func failNext(
        status: Int,
        retryAfter: Int? = nil,
        count: Int = 1,
        matching: @escaping @Sendable (_ method: String, _ path: String) -> Bool = { _, _ in true }
    ) {
        state.withLockedValue {
            $0.failRules.append(FailRule(status: status, retryAfter: retryAfter, remaining: max(count, 1), matching: matching))
        }
    }

    /// The next blob download sends its headers with the full `Content-Length`,
    /// then `afterBytes` body bytes, then closes the connection.
    public func dropBlobConnection(afterBytes: Int) {
        state.withLockedValue { $0.dropAfterBytes = max(afterBytes, 0) }
    }

    /// The next chunked upload of chunk `index` is answered as if stored (the
    /// reply lists it in `uploadedChunkIds`, status 202) but the chunk is
    /// forgotten: the resume GET does not list it and the upload completes
    /// only once it is sent again.
    public func loseChunk(index: Int) {
        state.withLockedValue { $0.lostChunkIndex = index }
    }

    /// While set (this one is persistent, pass `nil` to stop), blob downloads
    /// answer `302` with `Location: http://<host>:<port>/<context>/s3/<uid>?sig=…`.
    /// The `s3` endpoint serves the bytes without authentication (with Range);
    /// whether that request carried credentials is visible in
    /// ``NuxeoTestServer/requests()``.
    public func redirectBlobs(to host: String?) {
        state.withLockedValue { $0.redirectHost = host }
    }

    /// While set (persistent, pass `nil` to stop), every `@children` page is answered with
    /// `contradiction` instead of the true page.
    public func contradictListings(_ contradiction: ListingContradiction?) {
        state.withLockedValue { $0.listingContradiction = contradiction }
    }

    /// Clears every pending fault (tokens already revoked stay revoked).
    public func reset() {
        state.withLockedValue { $0 = State() }
    }

    // MARK: - Consumed by the server

    func takeFailure(method: String, path: String) -> (status: Int, retryAfter: Int?)? {
        state.withLockedValue { state in
            guard let index = state.failRules.firstIndex(where: { $0.matching(method, path) }) else { return nil }
            let rule = state.failRules[index]
            state.failRules[index].remaining -= 1
            if state.failRules[index].remaining <= 0 { state.failRules.remove(at: index) }
            return (rule.status, rule.retryAfter)
        }
    }

    func takeBlobDrop() -> Int? {
        state.withLockedValue { state in
            defer { state.dropAfterBytes = nil }
            return state.dropAfterBytes
        }
    }

    func takeLostChunk(_ index: Int) -> Bool {
        state.withLockedValue { state in
            guard state.lostChunkIndex == index else { return false }
            state.lostChunkIndex = nil
            return true
        }
    }

    var blobRedirectHost: String? { state.withLockedValue { $0.redirectHost } }

    var listingContradiction: ListingContradiction? { state.withLockedValue { $0.listingContradiction } }
}
