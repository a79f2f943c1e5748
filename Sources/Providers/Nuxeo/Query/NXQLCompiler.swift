import Foundation
import ProviderAPI

/// Compiles a portable `Query` to an NXQL statement.
///
/// | query | NXQL |
/// |---|---|
/// | `.nameContains("x")` | `dc:title ILIKE '%x%'` (`%`, `_`, `\` in the text matched literally) |
/// | `.fullText("x")` | `ecm:fulltext = 'x'` |
/// | `.kind(.folder)` / `.kind(.file)` | `ecm:mixinType = 'Folderish'` / `ecm:mixinType <> 'Folderish'` |
/// | `.mimeType("image/*")` / `.mimeType("text/plain")` | `file:content/mime-type LIKE 'image/%'` / `… = 'text/plain'` |
/// | `.modified(after:before:)` | `dc:modified >= TIMESTAMP '2024-01-01T10:00:00.000Z'` and `dc:modified < TIMESTAMP '…'` |
/// | `.size(min:max:)` | `file:content/length >= n` and `file:content/length <= n` |
/// | `.under(path)` | `ecm:path STARTSWITH '/root/path'` (strictly below) |
/// | `.and`, `.or`, `.not` | `AND`, `OR`, `NOT (…)` |
/// | `.native(s)` at the top | `s`, untouched: no default filters, no `ORDER BY` |
/// | `.native(s)` nested | `(s)`, a predicate fragment |
///
/// String literals are escaped as the server's `NXQL.escapeString` expects (`\` → `\\`,
/// `'` → `\'`, newline → `\n`, plus `\r` and `\t`); quotes are never doubled.
/// The default filters (``Options``) hide trashed documents, proxies, versions and
/// hidden-in-navigation documents, as `@children` does.
///
/// ```swift
/// let nxql = try NXQLCompiler().compile(.and([.nameContains("report"), .kind(.file)]), sort: [SortKey(.modified, ascending: false)])
/// ```
package struct NXQLCompiler: Sendable {
    /// How trashed documents are recognised and hidden.
    package enum TrashFilter: Sendable, Hashable {
        /// Do not filter trashed documents.
        case none
        /// `ecm:isTrashed = 0`, for servers 10.1 and later.
        case isTrashed
        /// `ecm:currentLifeCycleState <> 'deleted'`, the lifecycle trash of older servers.
        case lifeCycleState
    }

    /// Where `.under` points in the repository.
    package enum Location: Sendable, Hashable {
        /// An absolute repository path: `ecm:path STARTSWITH '…'`.
        case path(String)
        /// A folder uid: `ecm:ancestorId = '…'`.
        case ancestorId(String)
    }

    /// Compilation settings.
    package struct Options: Sendable {
        /// The `FROM` clause (`Document`, or a type such as `File`).
        package var documentType: String
        /// How to hide trashed documents.
        package var trashFilter: TrashFilter
        /// Adds `ecm:isProxy = 0`.
        package var excludesProxies: Bool
        /// Adds `ecm:isVersion = 0`.
        package var excludesVersions: Bool
        /// Adds `ecm:mixinType <> 'HiddenInNavigation'`.
        package var excludesHiddenInNavigation: Bool
        /// The property holding a file's content (`file:content`).
        package var blobXPath: String
        /// Resolves an `ItemPath` of `.under` to a repository location; by default the path's
        /// segments joined under `/`.
        package var resolveLocation: @Sendable (ItemPath) throws -> Location

        /// Creates options; the defaults match `@children` on a 10.1+ server.
        package init(
            documentType: String = "Document",
            trashFilter: TrashFilter = .isTrashed,
            excludesProxies: Bool = true,
            excludesVersions: Bool = true,
            excludesHiddenInNavigation: Bool = true,
            blobXPath: String = "file:content",
            resolveLocation: @escaping @Sendable (ItemPath) throws -> Location = { .path($0.description) }
        ) {
            self.documentType = documentType
            self.trashFilter = trashFilter
            self.excludesProxies = excludesProxies
            self.excludesVersions = excludesVersions
            self.excludesHiddenInNavigation = excludesHiddenInNavigation
            self.blobXPath = blobXPath
            self.resolveLocation = resolveLocation
        }
    }

    /// The settings.
    package var options: Options

    /// Creates a compiler.
    package init(options: Options = Options()) {
        self.options = options
    }

    /// The full NXQL statement for `query`, ordered by `sort`.
    ///
    /// - Throws: `ProviderError` `invalidArgument` for a nested `.native` that is a whole
    ///   statement, or an `.under` path the resolver rejects.
    package func compile(_ query: Query, sort: [SortKey] = []) throws -> String {
        if case .native(let statement) = query { return statement }
        var parts = defaultFilters()
        switch try fragment(query) {
        case .always: break
        case .never: parts.append(Self.contradiction)
        case .expression(let text, let compound): parts.append(compound && !parts.isEmpty ? "(\(text))" : text)
        }
        var statement = "SELECT * FROM \(options.documentType)"
        if !parts.isEmpty { statement += " WHERE " + parts.joined(separator: " AND ") }
        if let order = orderBy(sort) { statement += " ORDER BY " + order }
        return statement
    }

    /// The `WHERE` predicate for `query` alone, without default filters; `nil` when it matches everything.
    package func predicate(_ query: Query) throws -> String? {
        switch try fragment(query) {
        case .always: return nil
        case .never: return Self.contradiction
        case .expression(let text, _): return text
        }
    }

    /// The `ORDER BY` list for `sort` (`dc:title ASC, dc:modified DESC`), or `nil` when empty.
    package func orderBy(_ sort: [SortKey]) -> String? {
        guard !sort.isEmpty else { return nil }
        return sort.map { key in
            let field = switch key.field {
            case .name: "dc:title"
            case .modified: "dc:modified"
            case .size: "\(options.blobXPath)/length"
            }
            return "\(field) \(key.ascending ? "ASC" : "DESC")"
        }.joined(separator: ", ")
    }

    /// The default filters as NXQL conditions.
    package func defaultFilters() -> [String] {
        var filters: [String] = []
        if options.excludesProxies { filters.append("ecm:isProxy = 0") }
        if options.excludesVersions { filters.append("ecm:isVersion = 0") }
        switch options.trashFilter {
        case .none: break
        case .isTrashed: filters.append("ecm:isTrashed = 0")
        case .lifeCycleState: filters.append("ecm:currentLifeCycleState <> 'deleted'")
        }
        if options.excludesHiddenInNavigation { filters.append("ecm:mixinType <> 'HiddenInNavigation'") }
        return filters
    }

    // MARK: - Literals

    /// `text` as a quoted NXQL string literal, escaped per the server's `NXQL.escapeString`.
    package static func literal(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "'": escaped += "\\'"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "'" + escaped + "'"
    }

    /// `text` as a LIKE pattern matching it literally: `\`, `%` and `_` are prefixed with `\`,
    /// the escape character of Nuxeo's LIKE on both storage back ends. The result still needs ``literal(_:)``.
    package static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" { escaped += "\\" }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    /// `date` as an NXQL timestamp literal in UTC with an explicit offset,
    /// `TIMESTAMP 'yyyy-MM-ddTHH:mm:ss.SSSZ'`.
    ///
    /// The server parses the literal with Joda's `dateOptionalTimeParser().withOffsetParsed()`
    /// (`DateLiteral`), so the `Z` makes the instant exact whatever the server's own time zone;
    /// without it the server would read the time in its default zone.
    package static func timestamp(_ date: Date) -> String {
        "TIMESTAMP '\(NuxeoDateParser.string(from: date))'"
    }

    /// An always-false condition, for a query that can match nothing (`.or([])`).
    static let contradiction = "ecm:mixinType = 'Folderish' AND ecm:mixinType <> 'Folderish'"

    // MARK: - Fragments

    private enum Fragment {
        case always
        case never
        case expression(String, compound: Bool)
    }

    private func fragment(_ query: Query) throws -> Fragment {
        switch query {
        case .nameContains(let text):
            if text.isEmpty { return .always }
            return leaf("dc:title ILIKE " + Self.literal("%" + Self.likeEscaped(text) + "%"))
        case .fullText(let text):
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .always }
            return leaf("ecm:fulltext = " + Self.literal(text))
        case .kind(let kind):
            return leaf(kind == .folder ? "ecm:mixinType = 'Folderish'" : "ecm:mixinType <> 'Folderish'")
        case .mimeType(let type):
            let field = "\(options.blobXPath)/mime-type"
            if type.hasSuffix("/*") {
                let family = String(type.dropLast(1))
                return leaf("\(field) LIKE " + Self.literal(Self.likeEscaped(family) + "%"))
            }
            return leaf("\(field) = " + Self.literal(type))
        case .modified(let after, let before):
            var parts: [String] = []
            if let after { parts.append("dc:modified >= " + Self.timestamp(after)) }
            if let before { parts.append("dc:modified < " + Self.timestamp(before)) }
            return conjunction(parts)
        case .size(let min, let max):
            let field = "\(options.blobXPath)/length"
            var parts: [String] = []
            if let min { parts.append("\(field) >= \(min)") }
            if let max { parts.append("\(field) <= \(max)") }
            return conjunction(parts)
        case .under(let path):
            switch try options.resolveLocation(path) {
            case .path(let absolute): return leaf("ecm:path STARTSWITH " + Self.literal(absolute))
            case .ancestorId(let uid): return leaf("ecm:ancestorId = " + Self.literal(uid))
            }
        case .and(let queries):
            var parts: [Fragment] = []
            for query in queries {
                let part = try fragment(query)
                switch part {
                case .always: continue
                case .never: return .never
                case .expression: parts.append(part)
                }
            }
            return combine(parts, with: "AND", empty: .always)
        case .or(let queries):
            var parts: [Fragment] = []
            for query in queries {
                let part = try fragment(query)
                switch part {
                case .always: return .always
                case .never: continue
                case .expression: parts.append(part)
                }
            }
            return combine(parts, with: "OR", empty: .never)
        case .not(let inner):
            switch try fragment(inner) {
            case .always: return .never
            case .never: return .always
            case .expression(let text, _): return leaf("NOT (\(text))")
            }
        case .native(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return .always }
            if trimmed.uppercased().hasPrefix("SELECT") {
                throw ProviderError(
                    .invalidArgument, "a whole NXQL statement can only be the top-level query, not part of one")
            }
            return leaf("(\(trimmed))")
        }
    }

    private func leaf(_ text: String) -> Fragment { .expression(text, compound: false) }

    private func conjunction(_ parts: [String]) -> Fragment {
        switch parts.count {
        case 0: return .always
        case 1: return leaf(parts[0])
        default: return .expression(parts.joined(separator: " AND "), compound: true)
        }
    }

    private func combine(_ parts: [Fragment], with op: String, empty: Fragment) -> Fragment {
        let texts: [String] = parts.compactMap { part in
            guard case .expression(let text, let compound) = part else { return nil }
            return compound ? "(\(text))" : text
        }
        switch texts.count {
        case 0: return empty
        case 1:
            if case .expression(let text, let compound) = parts[0] { return .expression(text, compound: compound) }
            return empty
        default: return .expression(texts.joined(separator: " \(op) "), compound: true)
        }
    }
}
