import Foundation
import ProviderAPI

/// A small extension → MIME type table, for the type an adapter declares for an upload or
/// reports for a file whose server (or disk) keeps none.
///
/// The extension is matched without regard to case; a name without one, or with one not listed,
/// is `application/octet-stream`.
///
/// | extension | MIME type |
/// |---|---|
/// | `txt` | `text/plain` |
/// | `md` | `text/markdown` |
/// | `html` | `text/html` |
/// | `htm` | `text/html` |
/// | `css` | `text/css` |
/// | `csv` | `text/csv` |
/// | `xml` | `application/xml` |
/// | `json` | `application/json` |
/// | `js` | `text/javascript` |
/// | `pdf` | `application/pdf` |
/// | `zip` | `application/zip` |
/// | `gz` | `application/gzip` |
/// | `tar` | `application/x-tar` |
/// | `png` | `image/png` |
/// | `jpg` | `image/jpeg` |
/// | `jpeg` | `image/jpeg` |
/// | `gif` | `image/gif` |
/// | `svg` | `image/svg+xml` |
/// | `webp` | `image/webp` |
/// | `heic` | `image/heic` |
/// | `mp3` | `audio/mpeg` |
/// | `wav` | `audio/wav` |
/// | `mp4` | `video/mp4` |
/// | `mov` | `video/quicktime` |
/// | `doc` | `application/msword` |
/// | `docx` | `application/vnd.openxmlformats-officedocument.wordprocessingml.document` |
/// | `xlsx` | `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet` |
/// | `pptx` | `application/vnd.openxmlformats-officedocument.presentationml.presentation` |
/// | `odt` | `application/vnd.oasis.opendocument.text` |
///
/// ```swift
/// MIMETypes.guess("q3.pdf")   // "application/pdf"
/// ```
public enum MIMETypes {
    private static let table: [String: String] = [
        "txt": "text/plain", "md": "text/markdown", "html": "text/html", "htm": "text/html", "css": "text/css",
        "csv": "text/csv", "xml": "application/xml", "json": "application/json", "js": "text/javascript",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml",
        "webp": "image/webp", "heic": "image/heic", "mp3": "audio/mpeg", "wav": "audio/wav", "mp4": "video/mp4",
        "mov": "video/quicktime", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
    ]

    /// The MIME type of a file named `name`, by its extension; `application/octet-stream` when unknown.
    public static func guess(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        let ext = name[name.index(after: dot)...].lowercased()
        return table[ext] ?? "application/octet-stream"
    }
}
