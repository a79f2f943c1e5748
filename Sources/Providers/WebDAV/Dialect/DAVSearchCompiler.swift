import Foundation
import ProviderAPI

/// Compiles a portable `Query` into an RFC 5323 `basicsearch` body, as Nextcloud's
/// `SEARCH /remote.php/dav` takes it.
///
/// - `Query.nameContains(_:)` is `like` on `d:displayname` (`%text%`);
/// - `Query.kind(_:)` is `is-collection` (or its negation);
/// - `Query.mimeType(_:)` is `eq` on `d:getcontenttype`, or `like` for a family (`image/%`);
/// - `Query.modified(after:before:)` is `gte`/`lt` on `d:getlastmodified` (ISO 8601, UTC);
/// - `Query.size(min:max:)` is `gte`/`lte` on `oc:size`;
/// - `Query.under(_:)` at the top level (alone or inside the outermost `and`) becomes the scope;
///   anywhere else, and `Query.fullText(_:)`, it is `ProviderError.Code.unsupported`;
/// - `Query.native(_:)` is a whole `searchrequest` document, sent untouched.
///
/// Results are ordered by name, and `limit` becomes `d:limit/d:nresults`. Every literal is
/// XML-escaped, so a query can never inject markup.
package enum DAVSearchCompiler {
    /// A compiled search.
    package struct Compiled: Sendable, Hashable {
        /// The folder searched, relative to the provider's root.
        package var scope: ItemPath
        /// The `d:where` content; `nil` matches everything.
        package var condition: String?
    }

    /// Splits the scope from the condition and compiles the condition.
    package static func compile(_ query: Query, root: ItemPath = .root) throws -> Compiled {
        var scope = root
        var rest: [Query] = []
        let parts: [Query]
        if case .and(let list) = query { parts = list } else { parts = [query] }
        var scoped = false
        for part in parts {
            if case .under(let folder) = part {
                if scoped {
                    // Two scopes: the deeper one wins when nested, else nothing can match.
                    if folder.isDescendant(of: scope) || folder == scope { scope = folder; continue }
                    if scope.isDescendant(of: folder) { continue }
                    throw ProviderError(.invalidArgument, "a search cannot be under both \(scope) and \(folder)")
                }
                scope = folder
                scoped = true
            } else {
                rest.append(part)
            }
        }
        let conditions = try rest.map(condition)
        let condition: String?
        switch conditions.count {
        case 0: condition = nil
        case 1: condition = conditions[0]
        default: condition = "<d:and>" + conditions.joined() + "</d:and>"
        }
        return Compiled(scope: scope, condition: condition)
    }

    /// The `searchrequest` document: `select` of `properties`, scope `href` at infinite depth,
    /// the condition, ordered by name, at most `limit` results.
    package static func body(_ compiled: Compiled, scopeHref: String, properties: String, limit: Int?) -> String {
        // Nextcloud refuses an empty where: match every name instead.
        let condition = compiled.condition
            ?? "<d:like><d:prop><d:displayname/></d:prop><d:literal>%</d:literal></d:like>"
        var body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <d:searchrequest xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">\
            <d:basicsearch><d:select><d:prop>\(properties)</d:prop></d:select>\
            <d:from><d:scope><d:href>\(escape(scopeHref))</d:href><d:depth>infinity</d:depth></d:scope></d:from>\
            <d:where>\(condition)</d:where>\
            <d:orderby><d:order><d:prop><d:displayname/></d:prop><d:ascending/></d:order></d:orderby>
            """
        if let limit { body += "<d:limit><d:nresults>\(max(1, limit))</d:nresults></d:limit>" }
        body += "</d:basicsearch></d:searchrequest>"
        return body
    }

    static func condition(_ query: Query) throws -> String {
        switch query {
        case .nameContains(let text):
            return like("<d:displayname/>", "%" + text + "%")
        case .fullText:
            throw ProviderError.unsupported("full-text search (WebDAV SEARCH matches names and properties only)")
        case .kind(.folder):
            return "<d:is-collection/>"
        case .kind(.file):
            return "<d:not><d:is-collection/></d:not>"
        case .mimeType(let type):
            if type.hasSuffix("/*") { return like("<d:getcontenttype/>", String(type.dropLast()) + "%") }
            return compare("eq", "<d:getcontenttype/>", type)
        case .modified(let after, let before):
            var parts: [String] = []
            if let after { parts.append(compare("gte", "<d:getlastmodified/>", iso8601(after))) }
            if let before { parts.append(compare("lt", "<d:getlastmodified/>", iso8601(before))) }
            return joined(parts)
        case .size(let min, let max):
            var parts: [String] = []
            if let min { parts.append(compare("gte", "<oc:size/>", String(min))) }
            if let max { parts.append(compare("lte", "<oc:size/>", String(max))) }
            return joined(parts)
        case .under:
            throw ProviderError.unsupported("a folder scope inside or/not in a WebDAV search")
        case .and(let list):
            guard !list.isEmpty else { return "<d:like><d:prop><d:displayname/></d:prop><d:literal>%</d:literal></d:like>" }
            return list.count == 1 ? try condition(list[0]) : "<d:and>" + (try list.map(condition)).joined() + "</d:and>"
        case .or(let list):
            guard !list.isEmpty else { return "<d:not><d:like><d:prop><d:displayname/></d:prop><d:literal>%</d:literal></d:like></d:not>" }
            return list.count == 1 ? try condition(list[0]) : "<d:or>" + (try list.map(condition)).joined() + "</d:or>"
        case .not(let inner):
            return "<d:not>" + (try condition(inner)) + "</d:not>"
        case .native:
            throw ProviderError(.invalidArgument, "a native search is a whole request, not part of one")
        }
    }

    static func joined(_ parts: [String]) -> String {
        switch parts.count {
        case 0: return "<d:like><d:prop><d:displayname/></d:prop><d:literal>%</d:literal></d:like>"
        case 1: return parts[0]
        default: return "<d:and>" + parts.joined() + "</d:and>"
        }
    }

    static func like(_ property: String, _ pattern: String) -> String {
        "<d:like><d:prop>\(property)</d:prop><d:literal>\(escape(pattern))</d:literal></d:like>"
    }

    static func compare(_ op: String, _ property: String, _ literal: String) -> String {
        "<d:\(op)><d:prop>\(property)</d:prop><d:literal>\(escape(literal))</d:literal></d:\(op)>"
    }

    /// `2021-03-04T05:06:07Z`.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Escapes text for XML character data and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                // Control characters other than tab and newlines cannot appear in XML 1.0.
                if scalar.value < 0x20, scalar != "\t", scalar != "\n", scalar != "\r" { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
