import Foundation
import ProviderAPI

/// A path's exact UTF-8 bytes, for sets and dictionaries that must not merge
/// canonically equivalent names (NFC and NFD spellings are different items).
struct PathKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }
    init(_ path: ItemPath) { self.init(path.storageKey) }
    /// The path as text again.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension ItemPath {
    /// The string the cache stores for this path: `/` for the root, else `/a/b`.
    ///
    /// SQLite compares text with the BINARY collation, so two spellings of one
    /// name in different Unicode normal forms stay different rows.
    var storageKey: String { description }

    /// The bounds of the open range `(lower, upper)` holding every stored
    /// descendant of this path (never the path itself), in binary order.
    var descendantRange: (lower: String, upper: String) {
        if isRoot { return ("/", "0") }  // every path starts with "/"; "0" is "/" + 1
        return (description + "/", description + "0")
    }
}

extension ProviderAccount {
    /// The key every row of this account is stored under.
    var storageKey: String { description }
}
