import Foundation
import ProviderAPI

/// The files an interrupted run of a job finished, by their path below the roots (exact bytes:
/// two spellings of one name in different Unicode forms are different files).
struct FinishedFiles: Sendable {
    private var byPath: [[UInt8]: FinishedFile] = [:]

    init(_ files: [FinishedFile] = []) {
        for file in files { byPath[Array(file.relativePath.description.utf8)] = file }
    }

    var isEmpty: Bool { byPath.isEmpty }

    /// Whether the file at `relative` was finished by the interrupted run and is still what it
    /// sent: the source is the same version (size, modified time, etag, and the digest of
    /// `algorithm` where both know it), and the destination still the file that run wrote (its
    /// size, and its etag where both the upload's answer and the listing give one).
    func stillValid(_ relative: ItemPath, source: Item, destination: Item, algorithm: DigestAlgorithm?) -> Bool {
        guard let record = byPath[Array(relative.description.utf8)], source.kind == .file, destination.kind == .file else { return false }
        let now = FileFingerprint(
            size: source.size, modified: source.modified, etag: source.etag, digest: algorithm.flatMap { source.digests[$0] })
        guard record.source.sameVersion(as: now) else { return false }
        if let written = record.destination.size ?? record.source.size, let size = destination.size, written != size { return false }
        if let written = record.destination.etag, let etag = destination.etag, !ETag.weaklyEqual(written, etag) { return false }
        return true
    }
}
