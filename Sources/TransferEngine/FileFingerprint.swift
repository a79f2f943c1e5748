import Foundation
import ProviderAPI

/// What a file was when a job read or wrote it: the fields a listing gives that change with its content.
package struct FileFingerprint: Sendable, Hashable {
    /// The size, where known.
    package var size: Int64?
    /// The modified time, where known.
    package var modified: Date?
    /// The etag, where the provider gives one.
    package var etag: String?
    /// A content digest, where known.
    package var digest: String?

    /// Creates a fingerprint.
    package init(size: Int64? = nil, modified: Date? = nil, etag: String? = nil, digest: String? = nil) {
        self.size = size
        self.modified = modified
        self.etag = etag
        self.digest = digest
    }

    /// Whether `other` is the same version as this one: the same size and modified time (both known
    /// or both unknown), the same etag where both have one, the same digest where both have one.
    package func sameVersion(as other: FileFingerprint) -> Bool {
        guard size == other.size else { return false }
        switch (modified, other.modified) {
        case (nil, nil): break
        case (let left?, let right?): if abs(left.timeIntervalSince(right)) > 1e-6 { return false }
        default: return false
        }
        if let left = etag, let right = other.etag, !ETag.weaklyEqual(left, right) { return false }
        if let left = digest, let right = other.digest, left.lowercased() != right.lowercased() { return false }
        return size != nil || modified != nil || etag != nil || digest != nil
    }
}
