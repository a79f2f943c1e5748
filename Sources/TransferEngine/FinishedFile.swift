import Foundation
import ProviderAPI

/// A file an interrupted run of a job finished: what it read from the source, and what the destination took.
package struct FinishedFile: Sendable, Hashable {
    /// The file below the job's two roots.
    package var relativePath: ItemPath
    /// The source file as it was read.
    package var source: FileFingerprint
    /// The destination file as the upload answered it (its size and etag, where given).
    package var destination: FileFingerprint

    /// Creates a record.
    package init(relativePath: ItemPath, source: FileFingerprint, destination: FileFingerprint) {
        self.relativePath = relativePath
        self.source = source
        self.destination = destination
    }
}
