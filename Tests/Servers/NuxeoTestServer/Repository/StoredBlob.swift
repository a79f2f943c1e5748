import Foundation

/// A blob held in memory: bytes, file name, mime type and MD5 digest.
struct StoredBlob: Sendable {
    var data: Data
    var filename: String
    var mimeType: String?
    var encoding: String?
    let digest: String

    init(data: Data, filename: String, mimeType: String?, encoding: String? = nil) {
        self.data = data
        self.filename = filename
        self.mimeType = mimeType
        self.encoding = encoding
        self.digest = MD5.hex(data)
    }

    var length: Int { data.count }

    /// The blob's bytes read as UTF-8 text, used by `ecm:fulltext` (text-like mime types only).
    var textContent: String? {
        let mime = (mimeType ?? "").lowercased()
        let textual = mime.hasPrefix("text/") || mime.contains("json") || mime.contains("xml") || mime.isEmpty
        guard textual, data.count <= 4 * 1024 * 1024 else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
