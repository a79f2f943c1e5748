import Foundation

/// Where a request path leads.
enum Route: Sendable {
    /// `B/index.php` (or the bare `B`).
    case index
    /// `/public/<hash>[/dl/<name>]` (also below `B`).
    case publicLink(hash: String, name: String?)
    case notFound

    init(path rawPath: String, basePrefix: String) {
        var path = rawPath
        if !basePrefix.isEmpty, path == basePrefix || path.hasPrefix(basePrefix + "/") {
            path = String(path.dropFirst(basePrefix.count))
            if path.isEmpty || path == "/" || path == "/index.php" {
                self = .index
                return
            }
        } else if basePrefix.isEmpty, path == "/" || path == "/index.php" {
            self = .index
            return
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { FormCodec.rawurldecode(String($0)) }
        if segments.count >= 2, segments[0] == "public" {
            var hash = segments[1]
            if hash.hasSuffix(".php") { hash = String(hash.dropLast(4)) }
            let name = segments.count >= 4 && segments[2] == "dl" ? segments[3...].joined(separator: "/") : nil
            self = .publicLink(hash: hash, name: name)
            return
        }
        self = .notFound
    }
}
