import Foundation
import HTTPProviderKit
import ProviderAPI

/// A `d:basicsearch` (RFC 5323) as Nextcloud accepts it.
///
/// No recorded SEARCH answer exists (see `Tests/Fixtures/nextcloud/SOURCES.md`), so this follows the
/// documented protocol exactly (Nextcloud developer manual, `client_apis/WebDAV/search.rst`):
/// `d:select/d:prop` names the returned properties; `d:from/d:scope` holds `d:href` `/files/USER/…`
/// and `d:depth` (`infinity`, or `1` for direct children); `d:where` combines `d:and`, `d:or`,
/// `d:not`, `d:eq`, `d:gt`, `d:gte`, `d:lt`, `d:lte`, `d:like` (`%` and `_` wildcards, case-insensitive)
/// and `d:is-collection` over `d:displayname`, `d:getcontenttype`, `d:getlastmodified`, `oc:size`,
/// `d:getcontentlength`, `oc:fileid`, `oc:favorite`, `nc:upload_time`, `nc:creation_time`;
/// `d:orderby` holds `d:order` elements over the searchable properties but `oc:fileid` (not sortable) (or, as in the manual's example, one `d:prop` with
/// `d:ascending`/`d:descending`); `d:limit/d:nresults` caps the results. Anything else is a 400.
struct SearchQuery {
    indirect enum Condition {
        case and([Condition])
        case or([Condition])
        case not(Condition)
        case compare(String, QName, String)
        case isCollection
    }

    struct Order {
        var property: QName
        var ascending: Bool
    }

    var select: [QName]
    var scopeUser: String
    var scopePath: [String]
    var depth: Int?
    var condition: Condition?
    var orders: [Order]
    var limit: Int?
    var firstResult: Int

    static let searchable: Set<QName> = [
        .d("displayname"), .d("getcontenttype"), .d("getlastmodified"), .o("size"), .d("getcontentlength"),
        .o("fileid"), .o("favorite"), .n("upload_time"), .n("creation_time"),
    ]

    static func parse(_ body: Data) throws -> SearchQuery {
        let root = try DAVElement.parse(body)
        guard root.name == .d("searchrequest"), let search = root.child(.d("basicsearch")) else {
            throw SabreError.badRequest("The request body must be a {DAV:}searchrequest with a {DAV:}basicsearch")
        }
        guard let select = search.child(.d("select"))?.child(.d("prop")) else { throw SabreError.badRequest("Missing {DAV:}select") }
        guard let scope = search.child(.d("from"))?.child(.d("scope")), let href = scope.child(.d("href")) else {
            throw SabreError.badRequest("Missing {DAV:}from/{DAV:}scope/{DAV:}href")
        }
        let parts = href.text.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "/", omittingEmptySubsequences: true).map { FormCodec.percentDecode(String($0)).precomposedStringWithCanonicalMapping }
        guard parts.count >= 2, parts[0] == "files" else { throw SabreError.badRequest("The scope must be /files/USER/…") }
        let depthText = scope.child(.d("depth"))?.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() ?? "infinity"
        let depth: Int?
        switch depthText {
        case "infinity": depth = nil
        case "1": depth = 1
        case "0": depth = 0
        default: throw SabreError.badRequest("Invalid {DAV:}depth \(depthText)")
        }
        var condition: Condition?
        if let whereElement = search.child(.d("where")) {
            guard whereElement.children.count <= 1 else { throw SabreError.badRequest("{DAV:}where holds one operator") }
            condition = try whereElement.children.first.map(parseCondition)
        }
        var orders: [Order] = []
        if let orderby = search.child(.d("orderby")) {
            let items = orderby.children(.d("order"))
            for item in items.isEmpty && orderby.child(.d("prop")) != nil ? [orderby] : items {
                guard let prop = item.child(.d("prop"))?.children.first?.name else { throw SabreError.badRequest("{DAV:}order without a property") }
                guard searchable.contains(prop), prop != .o("fileid") else {
                    throw SabreError.badRequest("{\(prop.namespace)}\(prop.local) is not sortable")
                }
                orders.append(Order(property: prop, ascending: item.child(.d("descending")) == nil))
            }
        }
        var limit: Int?
        var first = 0
        if let limitElement = search.child(.d("limit")) {
            if let text = limitElement.child(.d("nresults"))?.text {
                guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value >= 0 else {
                    throw SabreError.badRequest("Invalid {DAV:}nresults")
                }
                limit = value
            }
            if let text = limitElement.child(.n("firstresult"))?.text {
                first = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            }
        }
        return SearchQuery(
            select: select.children.map(\.name), scopeUser: parts[1], scopePath: Array(parts.dropFirst(2)), depth: depth,
            condition: condition, orders: orders, limit: limit, firstResult: first)
    }

    private static func parseCondition(_ element: DAVElement) throws -> Condition {
        guard element.name.namespace == QName.dav else { throw SabreError.badRequest("Unsupported operator {\(element.name.namespace)}\(element.name.local)") }
        switch element.name.local {
        case "and", "or":
            let items = try element.children.map(parseCondition)
            guard items.count >= 1 else { throw SabreError.badRequest("{DAV:}\(element.name.local) needs operands") }
            return element.name.local == "and" ? .and(items) : .or(items)
        case "not":
            guard element.children.count == 1 else { throw SabreError.badRequest("{DAV:}not takes one operand") }
            return .not(try parseCondition(element.children[0]))
        case "is-collection":
            return .isCollection
        case "eq", "gt", "gte", "lt", "lte", "like":
            guard let prop = element.child(.d("prop"))?.children.first?.name, let literal = element.child(.d("literal")) else {
                throw SabreError.badRequest("{DAV:}\(element.name.local) needs a {DAV:}prop and a {DAV:}literal")
            }
            guard searchable.contains(prop) else { throw SabreError.badRequest("{\(prop.namespace)}\(prop.local) is not searchable") }
            return .compare(element.name.local, prop, literal.text)
        default:
            throw SabreError.badRequest("Unsupported operator {DAV:}\(element.name.local)")
        }
    }

    // MARK: - Evaluation

    /// The comparable value of a searchable property.
    enum Value: Comparable {
        case number(Double)
        case text(String)
    }

    static func value(_ prop: QName, _ node: FileNode, _ store: FileStore) -> Value {
        switch prop {
        case .d("displayname"): return .text(node.name.lowercased())
        case .d("getcontenttype"): return .text(node.mimeType.lowercased())
        case .d("getlastmodified"): return .number(Double(node.mtime))
        case .o("size"): return .number(Double(store.size(of: node.id)))
        case .d("getcontentlength"): return .number(Double(node.isFolder ? 0 : node.data.count))
        case .o("fileid"): return .number(Double(node.id))
        case .o("favorite"): return .number(node.favorite ? 1 : 0)
        case .n("upload_time"): return .number(Double(node.uploadTime))
        default: return .number(Double(node.creationTime))
        }
    }

    static func literal(_ prop: QName, _ text: String) throws -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch prop {
        case .d("displayname"), .d("getcontenttype"): return .text(trimmed.lowercased())
        case .d("getlastmodified"), .n("upload_time"), .n("creation_time"):
            if let number = Double(trimmed) { return .number(number) }
            if let date = HTTPDate.parseISO8601(trimmed) ?? HTTPDate.parse(trimmed) { return .number(date.timeIntervalSince1970) }
            throw SabreError.badRequest("Invalid date literal \(trimmed)")
        case .o("favorite"):
            return .number(trimmed == "1" || trimmed.lowercased() == "true" ? 1 : 0)
        case .o("fileid"):
            // Nextcloud casts the literal with PHP's `(int)`: the leading digits count, so the
            // `OC-FileId` / `oc:id` form `00000026ocabc123` is file 26 (nc-py-api searches so), and a
            // literal without leading digits is 0, which matches nothing.
            return .number(Double(phpInt(trimmed)))
        default:
            guard let number = Double(trimmed) else { throw SabreError.badRequest("Invalid number literal \(trimmed)") }
            return .number(number)
        }
    }

    /// PHP's `(int)` of a string: optional sign, then the leading decimal digits; 0 without any.
    static func phpInt(_ text: String) -> Int64 {
        var scalars = Substring(text)
        var sign: Int64 = 1
        if let first = scalars.first, first == "-" || first == "+" {
            if first == "-" { sign = -1 }
            scalars = scalars.dropFirst()
        }
        let digits = scalars.prefix { $0.isASCII && $0.isNumber }
        return (Int64(digits.prefix(18)) ?? 0) * sign
    }

    static func matches(_ condition: Condition, _ node: FileNode, _ store: FileStore) throws -> Bool {
        switch condition {
        case .and(let items): return try items.allSatisfy { try matches($0, node, store) }
        case .or(let items): return try items.contains { try matches($0, node, store) }
        case .not(let item): return try !matches(item, node, store)
        case .isCollection: return node.isFolder
        case .compare(let op, let prop, let literalText):
            let actual = value(prop, node, store)
            if op == "like" {
                guard case .text(let text) = actual else { throw SabreError.badRequest("{DAV:}like needs a text property") }
                return like(text, literalText.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
            }
            let expected = try literal(prop, literalText)
            switch op {
            case "eq": return actual == expected
            case "gt": return actual > expected
            case "gte": return actual >= expected
            case "lt": return actual < expected
            default: return actual <= expected
            }
        }
    }

    /// SQL `LIKE`: `%` any run, `_` one character, `\` escapes.
    static func like(_ text: String, _ pattern: String) -> Bool {
        let t = Array(text)
        let p = Array(pattern)
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (p.count + 1) + j
            if let known = memo[key] { return known }
            let result: Bool
            if j == p.count {
                result = i == t.count
            } else if p[j] == "%" {
                result = match(i, j + 1) || (i < t.count && match(i + 1, j))
            } else if p[j] == "\\", j + 1 < p.count {
                result = i < t.count && t[i] == p[j + 1] && match(i + 1, j + 2)
            } else {
                result = i < t.count && (p[j] == "_" || t[i] == p[j]) && match(i + 1, j + 1)
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }
}
