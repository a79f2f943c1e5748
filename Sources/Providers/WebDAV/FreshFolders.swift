import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Folders this provider made itself, each empty when made, and the names it has written into
/// them since: an upload of any other name there under `ConflictPolicy.fail` needs no look at the
/// name first on a server that does not refuse `If-None-Match: *` (nginx, lighttpd). A copy into a
/// new tree then sends one `PUT` per file, not a `PROPFIND` and a `PUT`.
///
/// A folder counts only where the server was shown to refuse `MKCOL` over an existing folder, so
/// that its success proves the folder new. Names are compared folded (NFC, lower case), more
/// alike than any server's own rule, so a name a case-folding server would take for a written one
/// is looked at. Everything is forgotten on any delete, move or server-side copy, which may have
/// put items there; only another client writing into the new folder in the meantime is not seen,
/// as it is not by a look at the name a moment before the `PUT` either.
final class FreshFolders: Sendable {
    private let folders = NIOLockedValueBox<[ItemPath: Set<String>]>([:])

    /// Records that `folder` was just made, empty.
    func made(_ folder: ItemPath) {
        folders.withLockedValue { $0[folder] = [] }
    }

    /// Records that `name` was written (or is being written) into `folder`.
    func wrote(_ name: String, in folder: ItemPath) {
        folders.withLockedValue { folders in _ = folders[folder]?.insert(Self.folded(name)) }
    }

    /// Whether `folder` is one this provider made and `name` was never written into it; records
    /// the name as written either way, so a second write of it (a retry) looks first.
    func claim(_ name: String, in folder: ItemPath) -> Bool {
        folders.withLockedValue { folders in
            guard folders[folder] != nil else { return false }
            return folders[folder]?.insert(Self.folded(name)).inserted ?? false
        }
    }

    /// Forgets every folder (after a delete, a move or a server-side copy).
    func forgetAll() { folders.withLockedValue { $0.removeAll() } }

    /// `name` as alike as any server's rule would make it: NFC, lower case.
    private static func folded(_ name: String) -> String { name.precomposedStringWithCanonicalMapping.lowercased() }
}
