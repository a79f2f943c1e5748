import Foundation

/// Workspace path helpers (`/a/b`, root `/`), after pydio's `InputFilter`.
enum PathTools {
    static let recycle = "/recycle_bin"

    /// Decodes `base64encoded:`, removes `..` segments, collapses slashes,
    /// drops the trailing slash; `""` → `/`. The characters are kept as sent: a decomposed path
    /// does not find a precomposed file (recording 51).
    static func normalize(_ raw: String) -> String {
        var value = raw
        if value.hasPrefix("base64encoded:"), let data = Data(base64Encoded: String(value.dropFirst(14))) {
            value = String(decoding: data, as: UTF8.self)
        }
        value = value.replacingOccurrences(of: "\0", with: "")
        let segments = value.split(separator: "/", omittingEmptySubsequences: true)
            .map(String.init)
            .filter { $0 != ".." && $0 != "." }
        return "/" + segments.joined(separator: "/")
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

    /// `true` when `path` is `ancestor` or below it (byte for byte).
    static func isWithin(_ path: String, _ ancestor: String) -> Bool {
        ancestor == "/" || same(path, ancestor) || path.utf8.starts(with: (ancestor + "/").utf8)
    }

    /// Byte-for-byte equality: `café` precomposed and decomposed differ, as on the server's disk.
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// What follows `prefix` in `path`, by bytes (`prefix` is `path` or an ancestor of it).
    static func suffix(_ path: String, after prefix: String) -> String {
        String(decoding: path.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }

    /// `InputFilter::sanitize` for a file name: removes `" / | ? \`, NUL and HTML tags; the
    /// characters are kept as sent (only uploads store names precomposed).
    static func sanitizeFileName(_ name: String) -> String {
        sanitize(name, removing: "\"/|?\\")
    }

    /// For a folder name: removes `" | ? \`, NUL and HTML tags (and `/`, which would make a path);
    /// a decomposed name is kept decomposed (recordings 52–53).
    static func sanitizeDirName(_ name: String) -> String {
        sanitize(name, removing: "\"|?\\/")
    }

    private static func sanitize(_ name: String, removing characters: String) -> String {
        var text = name.replacingOccurrences(of: "<[A-Za-z/!][^<>]*>", with: "", options: .regularExpression)
        text.unicodeScalars.removeAll { characters.unicodeScalars.contains($0) || $0 == "\0" }
        return text
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
