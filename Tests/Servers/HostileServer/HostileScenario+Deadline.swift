import Foundation

extension HostileScenario {
    /// The file every WebDAV scenario serves at `/file.bin`, and its size in a `PROPFIND`.
    public static let fileName = "file.bin"
    /// The size `PROPFIND` reports for ``fileName``.
    public static let fileSize = 1000

    /// Accepts the connection, reads the request, and never answers (until the time limit).
    public static let stallBeforeHead = HostileScenario("stall before the head") { _, _ in HostileResponse([.silence]) }

    /// A WebDAV server whose `GET` sends a head declaring ``fileSize`` bytes, then nothing.
    public static let stallAfterHead = webdav("stall after the head") { _, _ in
        HostileResponse([
            .bytes(HostileResponse.head(200, headers: [("Content-Length", String(fileSize)), ("Content-Type", "application/octet-stream")])),
            .silence,
        ])
    }

    /// A WebDAV server whose `GET` sends ``fileSize`` bytes one at a time, `interval` apart
    /// (each byte comes before any sensible read timeout, the whole far slower than any minimum speed).
    public static func trickle(interval: Duration) -> HostileScenario {
        webdav("one byte per \(interval)") { _, _ in
            HostileResponse([
                .bytes(HostileResponse.head(200, headers: [("Content-Length", String(fileSize)), ("Content-Type", "application/octet-stream")])),
                .trickle(HostileDAV.content(fileSize), interval: interval),
            ])
        }
    }

    /// A WebDAV server whose `GET /file.bin` is a 302 to `/moved.bin` with a chunked body that
    /// never ends (1 KiB every 10 ms until the client leaves or the time limit), and whose
    /// `GET /moved.bin` is the file, whole and correct.
    public static let endlessRedirectBody = webdav("a 302 whose body never ends") { request, context in
        if request.method == "GET", request.path == "/moved.bin" {
            return .complete(200, headers: [("Content-Type", "application/octet-stream")], body: HostileDAV.content(fileSize))
        }
        return HostileResponse([
            .bytes(HostileResponse.head(302, headers: [
                ("Location", context.url("/moved.bin")), ("Content-Type", "text/html"), ("Transfer-Encoding", "chunked"),
            ])),
            .repeating(HostileResponse.chunk(Array(repeating: UInt8(ascii: "x"), count: 1024)), count: 6_000, interval: .milliseconds(10)),
        ])
    }

    /// A WebDAV server (``HostileDAV``) with `/file.bin` of ``fileSize`` bytes in its `PROPFIND`
    /// answers, where every other request (`GET`, `PUT`, …) is answered by `other`.
    public static func webdav(
        _ name: String, entries: [HostileDAV.Entry] = [.file(fileName, size: fileSize)],
        other: @escaping @Sendable (HostileRequest, HostileContext) -> HostileResponse
    ) -> HostileScenario {
        HostileScenario(name, route: HostileDAV.route(entries: entries, other: other))
    }

    /// A well-behaved WebDAV server serving `/file.bin` with `content` (and a correct
    /// `Content-Length`), for the side-file tests: the hostility is on the local disk.
    public static func webdavFile(_ content: [UInt8]) -> HostileScenario {
        webdav("a well-behaved file", entries: [.file(fileName, size: content.count)]) { request, _ in
            guard request.method == "GET", request.path == "/" + fileName else { return .text(404, "not found") }
            return .complete(200, headers: [("Content-Type", "application/octet-stream"), ("ETag", #""e1""#)], body: content)
        }
    }
}
