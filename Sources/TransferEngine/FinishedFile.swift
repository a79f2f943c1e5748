import Foundation
import ProviderAPI

/// A file an interrupted run of a job finished: what it read from the source, and what the destination took.
public struct FinishedFile: Sendable, Hashable {
    /// The file below the job's two roots.
    public var relativePath: ItemPath
    /// The source file as it was read.
    public var source: FileFingerprint
    /// The destination file as the upload answered it (its size and etag, where given).
    public var destination: FileFingerprint

    /// Creates a record.
    public init(relativePath: ItemPath, source: FileFingerprint, destination: FileFingerprint) {
        self.relativePath = relativePath
        self.source = source
        self.destination = destination
    }
}
