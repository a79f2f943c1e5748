import Foundation

extension HostileScenario {
    /// `GET` declares `Content-Length: 1000`, sends 400 bytes and closes the connection.
    public static let cutWithLength = webdav("a body cut short of its Content-Length") { _, _ in
        HostileResponse([
            .bytes(HostileResponse.head(200, headers: [("Content-Length", String(fileSize)), ("Content-Type", "application/octet-stream")])),
            .bytes(Array(HostileDAV.content(fileSize).prefix(400))),
        ])
    }

    /// `GET` sends no length (the body ends when the connection closes), 400 of the 1000 bytes
    /// `PROPFIND` reported, and closes.
    public static let cutWithoutLength = webdav("a body without length cut short of the PROPFIND size") { _, _ in
        HostileResponse([
            .bytes(HostileResponse.head(200, headers: [("Content-Type", "application/octet-stream")])),
            .bytes(Array(HostileDAV.content(fileSize).prefix(400))),
        ])
    }

    /// `GET` sends no length and 1500 bytes, where `PROPFIND` reported 1000.
    public static let longerThanDeclared = webdav("a body longer than the PROPFIND size") { _, _ in
        HostileResponse([
            .bytes(HostileResponse.head(200, headers: [("Content-Type", "application/octet-stream")])),
            .bytes(HostileDAV.content(fileSize + 500)),
        ])
    }

    /// `GET` without `Range` answered `206` with the second half (`Content-Range: bytes 500-999/1000`).
    public static let unaskedPartial = webdav("a 206 nobody asked for") { _, _ in
        let body = Array(HostileDAV.content(fileSize).suffix(500))
        return .complete(206, headers: [
            ("Content-Type", "application/octet-stream"), ("Content-Range", "bytes 500-999/\(fileSize)"), ("Accept-Ranges", "bytes"),
        ], body: body)
    }

    /// Any `GET` answered `206` with `Content-Range: bytes 0-499/1000` (whatever range was asked).
    public static let lyingContentRange = webdav("a Content-Range that is not the range asked") { _, _ in
        .complete(206, headers: [
            ("Content-Type", "application/octet-stream"), ("Content-Range", "bytes 0-499/\(fileSize)"), ("Accept-Ranges", "bytes"),
        ], body: Array(HostileDAV.content(fileSize).prefix(500)))
    }

    /// A Pydio server whose `ls` reports `/file.bin` with `bytesize="1000"` and whose
    /// `download` sends 400 bytes without a length, then closes.
    public static let pydioCutWithoutLength = HostileScenario(
        "a Pydio download without length cut short of the ls size",
        route: HostilePydio.route(
            ls: { request, _ in
                let node = HostilePydio.Node(path: "/" + fileName, size: String(fileSize))
                if request.queryItems["file"] != nil { return HostilePydio.listing(folder: "/", children: [node]) }
                return HostilePydio.listing(folder: "/", children: [node])
            },
            other: { request, _ in
                guard HostilePydio.action(request) == "download" else { return HostilePydio.xml("<tree/>") }
                return HostileResponse([
                    .bytes(HostileResponse.head(200, headers: [
                        ("Content-Type", "application/force-download"), ("Content-Disposition", "attachment; filename=\"file.bin\""),
                    ])),
                    .bytes(Array(HostileDAV.content(fileSize).prefix(400))),
                ])
            }))
}

extension HostileScenario {
    /// A WebDAV server serving `/file.bin` with `content`, honouring `Range: bytes=N-` with a true
    /// `206` (`Accept-Ranges: bytes`, a strong `ETag` `"e1"`), and whose `PROPFIND` reports
    /// `listedSize` (by default the content's true size).
    public static func webdavRangeFile(_ content: [UInt8], listedSize: Int? = nil) -> HostileScenario {
        webdav("a file served with ranges", entries: [.file(fileName, size: listedSize ?? content.count)]) { request, _ in
            guard request.method == "GET", request.path == "/" + fileName else { return .text(404, "not found") }
            let headers = [("Content-Type", "application/octet-stream"), ("ETag", #""e1""#), ("Accept-Ranges", "bytes")]
            if let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
                let start = Int(range.dropFirst(6).dropLast()), start < content.count
            {
                return .complete(
                    206, headers: headers + [("Content-Range", "bytes \(start)-\(content.count - 1)/\(content.count)")],
                    body: Array(content[start...]))
            }
            return .complete(200, headers: headers, body: content)
        }
    }
}
