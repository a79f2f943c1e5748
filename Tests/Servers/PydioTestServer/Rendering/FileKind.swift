import Foundation

/// The GUI type attributes pydio derives from a file extension.
struct FileKind: Sendable {
    var mimestringID: String
    var icon: String
    var fonticon: String
    var label: String

    static let text = FileKind(mimestringID: "10", icon: "txt2.png", fonticon: "file-document", label: "Text file")
    static let unknown = FileKind(mimestringID: "23", icon: "mime_empty.png", fonticon: "file", label: "Unknown")

    private static let byExtension: [String: FileKind] = [
        "txt": .text, "text": .text, "log": .text,
        "pdf": FileKind(mimestringID: "79", icon: "pdf.png", fonticon: "file-pdf", label: "Adobe Acrobat Document"),
        "png": FileKind(mimestringID: "13", icon: "image.png", fonticon: "file-image", label: "PNG picture"),
        "jpg": FileKind(mimestringID: "14", icon: "image.png", fonticon: "file-image", label: "JPG picture"),
        "jpeg": FileKind(mimestringID: "14", icon: "image.png", fonticon: "file-image", label: "JPG picture"),
        "gif": FileKind(mimestringID: "15", icon: "image.png", fonticon: "file-image", label: "GIF picture"),
    ]

    static func of(_ name: String) -> FileKind {
        guard let dot = name.lastIndex(of: ".") else { return .unknown }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? .unknown
    }

    /// PHP `StatHelper::roundSize`: `12 B`, `2.93 KB`, `1.5 MB`, `2 GB`.
    static func roundSize(_ bytes: Int) -> String {
        let units: [(Double, String)] = [(1_099_511_627_776, "TB"), (1_073_741_824, "GB"), (1_048_576, "MB"), (1024, "KB")]
        for (scale, unit) in units where Double(bytes) >= scale {
            let value = (Double(bytes) / scale * 100).rounded() / 100
            var text = String(format: "%.2f", value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return "\(text) \(unit)"
        }
        return "\(bytes) B"
    }
}
