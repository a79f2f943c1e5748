import Foundation
import ProviderAPI

/// A folder of a transfer job found the same on both sides by the last run of the job that
/// finished, with the etag each side's folder had then (``TransferJobStore/folderVersions(of:settings:)``).
///
/// Kept only where both providers declare `Capabilities.Features.recursiveETags`: a folder whose
/// etag is the same on both sides as recorded has nothing changed below it on either side since,
/// so the next run of the job need not list it.
package struct FolderVersion: Sendable, Hashable {
    /// The folder below the job's two roots.
    package var relativePath: ItemPath
    /// The source folder's etag, as the source gave it (a weak tag counts by its opaque part).
    package var sourceETag: String
    /// The destination folder's etag.
    package var destinationETag: String
    /// The files below the folder (at any depth) that were the same on both sides.
    package var files: Int

    /// Creates a record.
    package init(relativePath: ItemPath, sourceETag: String, destinationETag: String, files: Int) {
        self.relativePath = relativePath
        self.sourceETag = sourceETag
        self.destinationETag = destinationETag
        self.files = files
    }

    /// Whether the two folders still carry the recorded etags (weakly compared: a weak etag is an
    /// opaque folder version too); a missing etag never matches.
    package func matches(sourceETag: String?, destinationETag: String?) -> Bool {
        guard let sourceETag, let destinationETag else { return false }
        return ETag.weaklyEqual(sourceETag, self.sourceETag) && ETag.weaklyEqual(destinationETag, self.destinationETag)
    }
}
