import Foundation
import ProviderAPI

/// A digest computed from a source file, with the version of the file it was computed from.
package struct ComputedDigest: Sendable, Hashable {
    /// The file.
    package var path: ItemPath
    /// The digest's algorithm.
    package var algorithm: DigestAlgorithm
    /// The digest.
    package var digest: String
    /// The file's size, modified time and etag when it was read.
    package var version: FileFingerprint

    /// Creates a record.
    package init(path: ItemPath, algorithm: DigestAlgorithm, digest: String, version: FileFingerprint) {
        self.path = path
        self.algorithm = algorithm
        self.digest = digest
        self.version = version
    }
}
