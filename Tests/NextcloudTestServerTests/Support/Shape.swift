import Foundation
import ProviderAPI
@testable import NextcloudTestServer
import HTTPProviderKit

/// Flattens an XML or JSON document into lines `path=value` in document order, so two documents
/// compare on structure, element/key order and values. Volatile values (times, etags, ids,
/// tokens) become `*`; hosts become `HOST`.
struct Shape: Equatable, CustomStringConvertible {
    var lines: [String]

    var description: String { lines.joined(separator: "\n") }

    /// Element names (`d:getetag`) or JSON keys whose values differ between runs.
    var volatile: Set<String>
    /// Element names or keys left out entirely (documented differences).
    var ignored: Set<String>

    static func == (lhs: Shape, rhs: Shape) -> Bool { lhs.lines == rhs.lines }

    /// The first line where two shapes differ, for the failure message.
    func difference(from other: Shape) -> String? {
        for index in 0..<max(lines.count, other.lines.count) {
            let left = index < lines.count ? lines[index] : "<end>"
            let right = index < other.lines.count ? other.lines[index] : "<end>"
            if left != right { return "line \(index): server `\(left)` vs recording `\(right)`" }
        }
        return nil
    }

    static let hostPattern = #"https?://[A-Za-z0-9.\-]+(:\d+)?(/owncloud)?(/index\.php)?"#

    static func normalise(_ value: String) -> String {
        var text = value.replacingOccurrences(of: hostPattern, with: "HOST", options: .regularExpression)
        // Share tokens in link URLs, password hashes (argon2i / bcrypt shapes), the German link label.
        text = text.replacingOccurrences(of: #"/s/[A-Za-z0-9]{15}$"#, with: "/s/TOKEN", options: .regularExpression)
        text = text.replacingOccurrences(of: #"^[12]\|\$(argon2i|2y)\$.*$"#, with: "HASH-$1", options: .regularExpression)
        text = text.replacingOccurrences(of: "(Geteilter Link)", with: "(Shared link)")
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An XML document by qualified element names (prefix kept, so `d:`/`oc:`/`nc:` must match).
    static func xml(_ data: Data, volatile: Set<String> = [], ignored: Set<String> = [], maxChildren: Int? = nil) throws -> Shape {
        var root = try XMLElementTree.parse(data)
        if let maxChildren { root.children = Array(root.children.prefix(maxChildren)) }
        var lines: [String] = []
        func walk(_ element: XMLElementTree, _ path: String) {
            guard !ignored.contains(element.name) else { return }
            let here = path.isEmpty ? element.name : path + "/" + element.name
            if element.children.isEmpty {
                let value = volatile.contains(element.name) ? "*" : normalise(element.text)
                lines.append(here + "=" + value)
            } else {
                lines.append(here)
                for child in element.children { walk(child, here) }
            }
        }
        walk(root, "")
        return Shape(lines: lines, volatile: volatile, ignored: ignored)
    }

    /// A JSON document, keys in order; values carry their JSON kind (`"s"` string, `1` number, …).
    static func json(_ data: Data, volatile: Set<String> = [], ignored: Set<String> = []) throws -> Shape {
        guard let value = OCSValue.parse(json: data) else { throw Fixtures.Missing(description: "not JSON: \(String(decoding: data, as: UTF8.self).prefix(200))") }
        var lines: [String] = []
        func walk(_ value: OCSValue, _ path: String, _ key: String) {
            if volatile.contains(key) {
                lines.append(path + "=*")
                return
            }
            switch value {
            case .null: lines.append(path + "=null")
            case .bool(let flag): lines.append(path + "=\(flag)")
            case .int(let number): lines.append(path + "=#\(number)")
            case .double(let number): lines.append(path + "=#\(number)")
            case .string(let text): lines.append(path + "=\"\(normalise(text))\"")
            case .array(let items):
                lines.append(path + "=[\(items.count)]")
                for (index, item) in items.enumerated() { walk(item, path + "[\(index)]", key) }
            case .object(let pairs):
                lines.append(path + "={}")
                for (name, item) in pairs where !ignored.contains(name) { walk(item, path + "." + name, name) }
            }
        }
        walk(value, "", "")
        return Shape(lines: lines, volatile: volatile, ignored: ignored)
    }
}
