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

extension HostileScenario {
    /// A WebDAV `GET` answered by a chunked body: one chunk of 100 bytes, then silence (the last,
    /// empty chunk never comes).
    public static let chunkedNeverEnds = webdav("a chunked body whose last chunk never comes") { _, _ in
        HostileResponse([
            .bytes(HostileResponse.head(200, headers: [("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")])),
            .bytes(HostileResponse.chunk(Array(HostileDAV.content(fileSize).prefix(100)))),
            .silence,
        ])
    }

    /// A WebDAV server that answers every `GET` with an interim `100 Continue`, then nothing.
    public static let continueThenSilence = webdav("a 100 Continue, then silence") { _, _ in
        HostileResponse([.bytes(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)), .silence])
    }

    /// A WebDAV server that takes a `PUT` (all of its body) and never answers.
    public static let silentAfterUpload = webdav("a PUT taken whole and never answered") { _, _ in
        HostileResponse([.silence])
    }

    /// A WebDAV `GET` whose response head never ends: a status line, then one header line
    /// trickled a byte per `interval` (each byte well inside the read timeout).
    public static func trickledHead(interval: Duration) -> HostileScenario {
        webdav("a head trickled one byte per \(interval)") { _, _ in
            HostileResponse([
                .bytes(Array("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nX-Pad: ".utf8)),
                .trickle(Array(repeating: UInt8(ascii: "a"), count: 100_000), interval: interval),
            ])
        }
    }

    /// Bytes of the endless heads.
    public static let endlessHeadBytes = 256 << 20

    /// A `PROPFIND` (and every other request but `OPTIONS`) whose response head never ends, sent
    /// as fast as the client reads: header lines (`lines`) or one endless header value.
    public static func endlessHead(lines: Bool) -> HostileScenario {
        HostileScenario("a response head that never ends (\(lines ? "endless header lines" : "one endless header"))") { request, _ in
            if request.method == "OPTIONS" { return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")]) }
            let piece = 64 << 10
            let filler: [UInt8]
            if lines {
                let line = Array("X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".utf8)
                filler = Array((0..<(piece / line.count)).flatMap { _ in line })
            } else {
                filler = Array(repeating: UInt8(ascii: "a"), count: piece)
            }
            return HostileResponse([
                .bytes(Array("HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml\r\nX-Pad: start\r\n".utf8)),
                .bytes(lines ? [] : Array("X-Long: ".utf8)),
                .repeating(filler, count: endlessHeadBytes / filler.count, interval: .zero),
            ])
        }
    }
}
