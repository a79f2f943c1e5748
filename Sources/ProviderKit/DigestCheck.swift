import Foundation
import ProviderAPI

/// Checks downloaded content against a digest its server declared, hashing beside the transfer.
///
/// It picks the strongest algorithm Strata computes among those declared (SHA-256, then SHA-1,
/// then MD5); ``verify(request:)`` throws `ProviderError.Code.integrity` on a mismatch, and
/// must be called before the sink may `DownloadSink.finish()`.
///
/// ```swift
/// var check = DigestCheck(declared: item.digests)
/// for try await piece in body { await check?.update(piece); try await sink.write(piece) }
/// try await check?.verify()
/// try await sink.finish()
/// ```
package struct DigestCheck: Sendable {
    private var digester: OverlappedDigester
    /// The declared digest, lowercase hex.
    package let expected: String
    /// The algorithm checked.
    package var algorithm: DigestAlgorithm { digester.algorithm }

    /// A check for the strongest algorithm in `declared` that Strata computes; `nil` if none.
    package init?(declared: [DigestAlgorithm: String]) {
        for algorithm in [DigestAlgorithm.sha256, .sha1, .md5] {
            if let value = declared[algorithm], let made = Digester(algorithm) {
                digester = OverlappedDigester(made)
                expected = value.lowercased()
                return
            }
        }
        return nil
    }

    /// Adds the next piece of the content.
    package mutating func update(_ piece: ByteBuffer) async {
        await digester.update(piece)
    }

    /// Throws `ProviderError.Code.integrity` unless the content seen matches the declared digest.
    ///
    /// - Parameter request: the request to name in the error, if any.
    package mutating func verify(request: String? = nil) async throws {
        let got = await digester.finalize()
        guard got == expected else {
            throw ProviderError(.integrity, "\(algorithm) digest \(got) does not match the declared \(expected)", request: request)
        }
    }
}
