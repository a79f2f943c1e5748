import Foundation

/// A search, as a portable predicate that each adapter compiles to its server's
/// language (NXQL, DAV SEARCH, Pydio search), or a server's own query passed through.
///
/// ```swift
/// let query: Query = .and([.nameContains("report"), .kind(.file), .modified(after: lastWeek)])
/// ```
public indirect enum Query: Sendable, Hashable, Codable {
    /// The name contains the text, case-insensitively.
    case nameContains(String)
    /// The full text of the content or metadata matches, where the server indexes it.
    case fullText(String)
    /// Only files or only folders.
    case kind(ItemKind)
    /// The MIME type equals this one; a trailing `/*` matches a whole family (`image/*`).
    case mimeType(String)
    /// Modified within the range; either bound may be open.
    case modified(after: Date?, before: Date?)
    /// Size within the range in bytes, inclusive; either bound may be open.
    case size(min: Int64?, max: Int64?)
    /// Below this folder, at any depth.
    case under(ItemPath)
    /// All must hold.
    case and([Query])
    /// Any may hold.
    case or([Query])
    /// Must not hold.
    case not(Query)
    /// The server's own query language, passed through untouched.
    case native(String)

    /// Whether `item` satisfies the predicate, for providers and caches that filter on the client.
    ///
    /// ``fullText(_:)`` is matched against the name only and ``native(_:)`` never matches.
    public func matches(_ item: Item) -> Bool {
        switch self {
        case .nameContains(let text), .fullText(let text):
            return item.name.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        case .kind(let kind):
            return item.kind == kind
        case .mimeType(let type):
            guard let mime = item.mimeType?.lowercased() else { return false }
            let wanted = type.lowercased()
            if wanted.hasSuffix("/*") { return mime.hasPrefix(String(wanted.dropLast(1))) }
            return mime == wanted || mime.hasPrefix(wanted + ";")
        case .modified(let after, let before):
            guard let modified = item.modified else { return false }
            if let after, modified < after { return false }
            if let before, modified >= before { return false }
            return true
        case .size(let min, let max):
            guard let size = item.size else { return false }
            if let min, size < min { return false }
            if let max, size > max { return false }
            return true
        case .under(let folder):
            return item.path != folder && item.path.isDescendant(of: folder)
        case .and(let queries):
            return queries.allSatisfy { $0.matches(item) }
        case .or(let queries):
            return queries.contains { $0.matches(item) }
        case .not(let query):
            return !query.matches(item)
        case .native:
            return false
        }
    }
}
