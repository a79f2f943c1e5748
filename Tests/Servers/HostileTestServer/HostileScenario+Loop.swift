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

extension HostileScenario {
    /// A `PROPFIND` of `/` answered by one multistatus streamed without length, listing the folder
    /// and then `count` files (`f-0`, `f-1`, …) in pieces of 1000 responses.
    public static func webdavManyResponses(_ count: Int) -> HostileScenario {
        HostileScenario("a multistatus of \(count) responses") { request, _ in
            if request.method == "OPTIONS" { return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")]) }
            guard request.method == "PROPFIND" else { return .text(404, "not found") }
            let start = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"# + HostileDAV.response(href: "/", entry: nil)
            var steps: [HostileResponse.Step] = [
                .bytes(HostileResponse.head(207, headers: [("Content-Type", "application/xml; charset=utf-8")]) + Array(start.utf8))
            ]
            for first in stride(from: 0, to: count, by: 1000) {
                var piece = ""
                for number in first..<min(count, first + 1000) {
                    piece += HostileDAV.response(href: "/f-\(number)", entry: .file("f-\(number)", size: 1))
                }
                steps.append(.bytes(Array(piece.utf8)))
            }
            steps.append(.bytes(Array("</d:multistatus>".utf8)))
            return HostileResponse(steps)
        }
    }
}
