import Foundation

/// How a paging server that never stops says "there is another page".
public enum EndlessPaging: String, Sendable, CaseIterable {
    /// The same entries on every page.
    case samePage
    /// New entries on every page.
    case newEntries
}

extension HostileScenario {
    /// Entries per page of the endless paging scenarios.
    public static let entriesPerPage = 5

    /// A Nuxeo server whose `@children` always answers `isNextPageAvailable: true` (with a full
    /// page: its `pageSize` is the entries' count), until the time limit.
    public static func nuxeoPages(_ paging: EndlessPaging) -> HostileScenario {
        HostileScenario(
            "Nuxeo pages forever (\(paging.rawValue))",
            route: HostileNuxeo.route { page, _, context in
                let more = !context.isPastTimeLimit
                let index = paging == .samePage ? 0 : page
                let entries = (0..<(more ? entriesPerPage : 0)).map { number in
                    HostileNuxeo.document(
                        uid: "doc-\(index)-\(number)", title: "entry-\(index)-\(number).txt", path: "/entry-\(index)-\(number).txt",
                        folder: false)
                }
                return HostileNuxeo.json(200, HostileNuxeo.page(entries, index: index, pageSize: entriesPerPage, more: more))
            })
    }

    /// A Pydio server whose `ls` of a folder always carries a `<pagination>` with one more page
    /// than the current one, until the time limit.
    public static func pydioPages(_ paging: EndlessPaging) -> HostileScenario {
        HostileScenario(
            "Pydio pages forever (\(paging.rawValue))",
            route: HostilePydio.route(ls: { request, context in
                guard let dir = request.queryItems["dir"] ?? request.formItems["dir"] else {
                    return HostilePydio.listing(folder: "/", children: [])
                }
                // A page is asked as the folder's path followed by the literal text "%23<page>".
                let asked = dir.range(of: "%23").flatMap { Int(dir[$0.upperBound...]) } ?? 1
                let current = paging == .samePage ? 1 : asked
                let more = !context.isPastTimeLimit
                let children = (0..<(more ? entriesPerPage : 0)).map { number in
                    HostilePydio.Node(path: "/entry-\(current)-\(number).txt")
                }
                return HostilePydio.listing(folder: "/", children: children, page: (current, more ? current + 1 : current))
            }))
    }
}
