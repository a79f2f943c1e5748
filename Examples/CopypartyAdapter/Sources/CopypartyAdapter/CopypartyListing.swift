import Foundation
import NIOCore
import ProviderAPI

/// A folder's entries as copyparty's `?ls` answers them:
/// `{"dirs": [{"href": "sub/", "sz": 4096, "ts": 1795875658}], "files": [{"href": "a%20b.txt", …}]}`.
///
/// `href` is the entry's name, percent-encoded (a folder's ends in `/`); `sz` its size in bytes;
/// `ts` its modification time in whole seconds since 1970. Nothing else in the answer is used.
struct CopypartyListing: Sendable {
    /// The largest listing read (about 10,000 entries per MiB).
    static let maxBytes = 64 << 20

    /// The folder's files and folders.
    let items: [Item]

    /// Decodes the answer to `GET folder/?ls` for the folder at `folder`.
    init(decoding body: ByteBuffer, folder: ItemPath) throws {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(body.readableBytesView))
        } catch {
            throw ProviderError(.invalidResponse, "the listing of \(folder) is not copyparty's JSON: \(error)")
        }
        items = try wire.dirs.map { try $0.item(in: folder, kind: .folder) } + wire.files.map { try $0.item(in: folder, kind: .file) }
    }

    /// The entry named exactly `name`, byte for byte, if any (Swift's `==` on strings would take
    /// the NFD spelling of `café` for its NFC twin, two names to copyparty).
    func item(named name: String) -> Item? { items.first { $0.name.utf8.elementsEqual(name.utf8) } }

    private struct Wire: Decodable {
        let dirs: [Entry]
        let files: [Entry]
    }

    private struct Entry: Decodable {
        let href: String
        let sz: Int64
        let ts: Int64

        func item(in folder: ItemPath, kind: ItemKind) throws -> Item {
            let encoded = kind == .folder && href.hasSuffix("/") ? String(href.dropLast()) : href
            guard let name = encoded.removingPercentEncoding, !name.contains("/") else {
                throw ProviderError(.invalidResponse, "the listing of \(folder) holds an invalid name")
            }
            return Item(
                path: try folder.appending(name), kind: kind, size: kind == .file ? sz : nil,
                modified: Date(timeIntervalSince1970: TimeInterval(ts)))
        }
    }
}
