import Foundation

extension HostileScenario {
    /// Titles a Nuxeo server may hold that are no path segment: a slash (common in real titles),
    /// `.`, `..`, a NUL.
    public static let nuxeoUnsafeTitles = ["Q1/Q2 report", "..", ".", "../../etc/passwd", "nul\u{0}byte"]

    /// A Nuxeo folder whose files have the titles `titles` (and, as the server makes them,
    /// path segments `file-0`, `file-1`, …), on one page.
    public static func nuxeoTitles(_ titles: [String] = nuxeoUnsafeTitles) -> HostileScenario {
        HostileScenario(
            "Nuxeo titles that are no names",
            route: HostileNuxeo.route { page, pageSize, _ in
                let documents = titles.enumerated().map { number, title in
                    HostileNuxeo.document(uid: "doc-\(number)", title: jsonEscaped(title), path: "/file-\(number)", folder: false)
                }
                return HostileNuxeo.json(200, HostileNuxeo.page(documents, index: page, pageSize: pageSize, more: false))
            })
    }

    /// A Pydio folder listing one node at `path` (`/..`, `/.`, `/`), beside a well-named one.
    public static func pydioNodePath(_ path: String) -> HostileScenario {
        HostileScenario(
            "a Pydio node at \(path)",
            route: HostilePydio.route(ls: { _, _ in
                HostilePydio.listing(folder: "/", children: [HostilePydio.Node(path: "/fine.txt"), HostilePydio.Node(path: path)])
            }))
    }

    /// `text` as the contents of a JSON string.
    static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += "/"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
