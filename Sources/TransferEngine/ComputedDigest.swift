import Foundation
import ProviderAPI

/// A digest computed from a source file, with the version of the file it was computed from.
public struct ComputedDigest: Sendable, Hashable {
    /// The file.
    public var path: ItemPath
    /// The digest's algorithm.
    public var algorithm: DigestAlgorithm
    /// The digest.
    public var digest: String
    /// The file's size, modified time and etag when it was read.
    public var version: FileFingerprint

    /// Creates a record.
    public init(path: ItemPath, algorithm: DigestAlgorithm, digest: String, version: FileFingerprint) {
        self.path = path
        self.algorithm = algorithm
        self.digest = digest
        self.version = version
    }
}
