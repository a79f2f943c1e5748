import Foundation
import ProviderAPI

/// The files the last listings described, for the download that follows: their size and modified
/// time let a download skip the look at the file (one request, not two), its answer held to them
/// (`PydioDownloadAnswers`). Each is given once (``take(_:)``); an upload through this provider
/// drops the one of its path.
actor PydioListedFiles {
    /// Keyed by the path's exact bytes (Swift's `String` equality would merge NFC and NFD).
    private var files: [[UInt8]: Item] = [:]
    private let limit = 200_000

    /// Keeps the files among `items` (their storage shared with the caller's).
    func note(_ items: [Item]) {
        for item in items where item.kind == .file && item.size != nil {
            if files.count >= limit { files.removeAll(keepingCapacity: true) }
            files[Array(item.path.description.utf8)] = item
        }
    }

    /// The listed file at `path`, once: the next call gives `nil` until it is listed again.
    func take(_ path: ItemPath) -> Item? {
        files.removeValue(forKey: Array(path.description.utf8))
    }
}
