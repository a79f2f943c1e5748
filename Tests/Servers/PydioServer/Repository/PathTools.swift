import Foundation

/// Workspace path helpers (`/a/b`, root `/`), after pydio's `InputFilter`.
enum PathTools {
    static let recycle = "/recycle_bin"

    /// Decodes `base64encoded:`, removes `..` segments, collapses slashes,
    /// drops the trailing slash, NFC; `""` → `/`.
    static func normalize(_ raw: String) -> String {
        var value = raw
        if value.hasPrefix("base64encoded:"), let data = Data(base64Encoded: String(value.dropFirst(14))) {
            value = String(decoding: data, as: UTF8.self)
        }
        value = value.replacingOccurrences(of: "\0", with: "")
        let segments = value.split(separator: "/", omittingEmptySubsequences: true)
            .map(String.init)
            .filter { $0 != ".." && $0 != "." }
        let joined = "/" + segments.joined(separator: "/")
        return joined.precomposedStringWithCanonicalMapping
    }

    static func parent(_ path: String) -> String {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return "/" }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    static func name(_ path: String) -> String {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[path.index(after: slash)...])
    }

    static func join(_ dir: String, _ name: String) -> String {
        dir == "/" ? "/" + name : dir + "/" + name
    }

    /// `true` when `path` is `ancestor` or below it.
    static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        ancestor == "/" || path == ancestor || path.hasPrefix(ancestor + "/")
    }

    /// `InputFilter::sanitize` for a file name: removes `" / | ? \`, NUL and HTML tags; NFC.
    static func sanitizeFileName(_ name: String) -> String {
        sanitize(name, removing: "\"/|?\\")
    }

    /// For a folder name: removes `" | ? \`, NUL and HTML tags (and `/`, which would make a path); NFC.
    static func sanitizeDirName(_ name: String) -> String {
        sanitize(name, removing: "\"|?\\/")
    }

    private static func sanitize(_ name: String, removing characters: String) -> String {
        var text = name.replacingOccurrences(of: "<[A-Za-z/!][^<>]*>", with: "", options: .regularExpression)
        text.removeAll { characters.contains($0) || $0 == "\0" }
        return text.precomposedStringWithCanonicalMapping
    }

    /// Characters `upload` refuses with `… contains forbidden characters (411)`.
    static func hasForbiddenCharacters(_ name: String) -> Bool {
        name.hasPrefix(" ") || name.contains { "?\"|\\".contains($0) }
    }

    /// `name-1.ext`, `name-2.ext`… (before the last dot; none for dot-less names).
    static func numbered(_ name: String, _ index: Int) -> String {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot])-\(index)\(name[dot...])"
        }
        return "\(name)-\(index)"
    }
}
