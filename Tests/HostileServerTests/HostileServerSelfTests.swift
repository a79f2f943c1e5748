import Foundation
import HostileTestServer
import StrataTestSupport
import Testing

/// The hostile server really misbehaves as each scenario says, seen by a plain socket client
/// (no HTTP framework that would hide or refuse it).
@Suite("HostileServer: each scenario misbehaves as intended", .serialized)
struct HostileServerSelfTests {
    let file = "/" + HostileScenario.fileName

    @Test("stall before the head: the request is read, nothing comes back")
    func stallBeforeHead() async throws {
        try await Hostile.withServer(.stallBeforeHead) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port), idle: 1.5)
            #expect(answer.bytes.isEmpty)
            #expect(!answer.closed)
            #expect(server.requests.map(\.method) == ["GET"])
        }
    }

    @Test("a misbehaviour ends by itself at the time limit, and at stop()")
    func bounded() async throws {
        let server = try await HostileServer.start(scenario: .stallBeforeHead, timeLimit: .seconds(1))
        let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port), idle: 10)
        #expect(answer.closed, "the server closed the stalled connection at its time limit")
        await server.stop()

        let second = try await HostileServer.start(scenario: .stallBeforeHead)
        async let waiting = RawClient.exchange(port: second.port, RawClient.get(file, port: second.port), idle: 10)
        // Stop once the server holds the request (it records it), not after a guess at how long that takes.
        #expect(try await waitUntil { !second.requests.isEmpty }, "the request reached the server")
        await second.stop()
        #expect(try await waiting.closed, "stop() closed the stalled connection")
    }

    @Test("stall after the head: a head declaring 1000 bytes, then silence")
    func stallAfterHead() async throws {
        try await Hostile.withServer(.stallAfterHead) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port), idle: 4)
            #expect(answer.head.hasPrefix("HTTP/1.1 200"))
            #expect(answer.header("Content-Length") == "1000")
            #expect(answer.body.isEmpty)
            #expect(!answer.closed)
        }
    }

    @Test("trickle: one byte per interval")
    func trickle() async throws {
        try await Hostile.withServer(.trickle(interval: .milliseconds(300))) { server in
            let head = RawClient.get(file, port: server.port)
            // The head and five bytes of the body, far from the 1000 declared.
            let headLength = HostileResponse.head(
                200, headers: [("Content-Length", "1000"), ("Content-Type", "application/octet-stream")]).count
            let answer = try await RawClient.exchange(port: server.port, head, maxBytes: headLength + 5)
            #expect(answer.header("Content-Length") == "1000")
            #expect(!answer.closed)
            #expect(answer.body.count == 5)
            #expect(answer.body == Array(HostileDAV.content(5)))
        }
    }

    @Test("a 302 whose chunked body goes on past 256 KiB")
    func endlessRedirectBody() async throws {
        try await Hostile.withServer(.endlessRedirectBody) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port), maxBytes: 256 << 10)
            #expect(answer.head.hasPrefix("HTTP/1.1 302"))
            #expect(answer.header("Location") == "http://127.0.0.1:\(server.port)/moved.bin")
            #expect(answer.header("Transfer-Encoding") == "chunked")
            #expect(answer.bytes.count >= 256 << 10)
            #expect(!answer.closed)
            let moved = try await RawClient.exchange(port: server.port, RawClient.get("/moved.bin", port: server.port))
            #expect(moved.body.count == HostileScenario.fileSize)
        }
    }

    @Test("a Location with port 99999, and redirects anywhere")
    func redirects() async throws {
        try await Hostile.withServer(.redirectToInvalidPort()) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port))
            #expect(answer.head.hasPrefix("HTTP/1.1 302"))
            #expect(answer.header("Location") == "http://127.0.0.1:99999/file.bin")
        }
        let other = try #require(URL(string: "http://127.0.0.1:1/"))
        try await Hostile.withServer(.uploadRedirect(to: other)) { server in
            let put = "PUT /up.bin HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789"
            let answer = try await RawClient.exchange(port: server.port, put)
            #expect(answer.head.hasPrefix("HTTP/1.1 307"))
            #expect(answer.header("Location") == "http://127.0.0.1:1/up.bin")
            let recorded = try #require(server.requests.last)
            #expect(recorded.method == "PUT" && recorded.bodySize == 10 && recorded.bodyText == "0123456789")
        }
        try await Hostile.withServer(.pydioLoginRedirect(to: other)) { server in
            let form = "get_action=login&userid=a&password=pw"
            let login = "POST /pydio/index.php HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n" + form
            let answer = try await RawClient.exchange(port: server.port, login)
            #expect(answer.head.hasPrefix("HTTP/1.1 307"))
            #expect(answer.header("Location") == "http://127.0.0.1:1/pydio/index.php")
            #expect(server.requests.last?.formItems["password"] == "pw")
        }
    }

    @Test("sizes that lie: cut with a length, cut without one, longer than PROPFIND said")
    func lyingSizes() async throws {
        try await Hostile.withServer(.cutWithLength) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port))
            #expect(answer.header("Content-Length") == "1000")
            #expect(answer.body.count == 400)
            #expect(answer.closed)
        }
        try await Hostile.withServer(.cutWithoutLength) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port))
            #expect(answer.header("Content-Length") == nil && answer.header("Transfer-Encoding") == nil)
            #expect(answer.body.count == 400)
            #expect(answer.closed)
            let listing = try await RawClient.exchange(
                port: server.port, RawClient.get(file, port: server.port, headers: ["Depth: 0"], method: "PROPFIND"))
            #expect(listing.text.contains("<d:getcontentlength>1000</d:getcontentlength>"))
        }
        try await Hostile.withServer(.longerThanDeclared) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port))
            #expect(answer.body.count == 1500)
        }
        try await Hostile.withServer(.pydioCutWithoutLength) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get("/pydio/index.php?get_action=download&file=%2Ffile.bin", port: server.port))
            #expect(answer.header("Content-Length") == nil)
            #expect(answer.body.count == 400)
            let listing = try await RawClient.exchange(
                port: server.port, RawClient.get("/pydio/index.php?get_action=ls&file=%2Ffile.bin", port: server.port))
            #expect(listing.text.contains(#"bytesize="1000""#))
        }
    }

    @Test("206 never asked for, and a Content-Range that is not the range asked")
    func partials() async throws {
        try await Hostile.withServer(.unaskedPartial) { server in
            let answer = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port))
            #expect(answer.head.hasPrefix("HTTP/1.1 206"))
            #expect(server.requests.last?.header("Range") == nil)
        }
        try await Hostile.withServer(.lyingContentRange) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get(file, port: server.port, headers: ["Range: bytes=500-"]))
            #expect(answer.head.hasPrefix("HTTP/1.1 206"))
            #expect(answer.header("Content-Range") == "bytes 0-499/1000")
        }
    }

    @Test("Nuxeo and Pydio pages that never end", arguments: EndlessPaging.allCases)
    func endlessPages(_ paging: EndlessPaging) async throws {
        try await Hostile.withServer(.nuxeoPages(paging)) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get("/nuxeo/api/v1/id/x/@children?currentPageIndex=7&pageSize=1000", port: server.port))
            #expect(answer.text.contains(#""isNextPageAvailable":true"#))
            #expect(answer.text.contains(paging == .samePage ? "entry-0-0.txt" : "entry-7-0.txt"))
        }
        try await Hostile.withServer(.pydioPages(paging)) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get("/pydio/index.php?get_action=ls&dir=%2F%25237&options=al", port: server.port))
            let current = paging == .samePage ? 1 : 7
            #expect(answer.text.contains(#"total="\#(current + 1)" current="\#(current)""#))
            #expect(answer.text.contains("entry-\(current)-0.txt"))
        }
    }

    @Test("a Pydio ajxp_modiftime that is not a time", arguments: ["inf", "nan", "1e300"])
    func modifiedTimes(_ value: String) async throws {
        try await Hostile.withServer(.pydioModifiedTime(value)) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get("/pydio/index.php?get_action=ls&dir=%2F", port: server.port))
            #expect(answer.text.contains(#"ajxp_modiftime="\#(value)""#))
        }
    }

    @Test("names with ESC sequences and newlines, and an error body echoing Authorization")
    func output() async throws {
        try await Hostile.withServer(.webdavNames()) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get("/", port: server.port, headers: ["Depth: 1"], method: "PROPFIND"))
            #expect(answer.head.hasPrefix("HTTP/1.1 207"))
            #expect(answer.text.contains("/title%1B%5D0%3Bpwned%07.txt"))
            #expect(answer.text.contains("%0Ad"))
        }
        try await Hostile.withServer(.echoAuthorization) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get("/", port: server.port, headers: ["Authorization: Basic c2VjcmV0"], method: "PROPFIND"))
            #expect(answer.head.hasPrefix("HTTP/1.1 403"))
            #expect(answer.text.contains("<s:message>Access denied for Authorization: Basic c2VjcmV0</s:message>"))
            #expect(server.requests.last?.header("Authorization") == "Basic c2VjcmV0")
        }
    }

    @Test("a multistatus that is an unterminated comment, streamed until the connection closes")
    func unterminatedComment() async throws {
        try await Hostile.withServer(.unterminatedComment(bytes: 1 << 20)) { server in
            let answer = try await RawClient.exchange(
                port: server.port, RawClient.get("/", port: server.port, headers: ["Depth: 1"], method: "PROPFIND"), maxBytes: 4 << 20)
            #expect(answer.head.hasPrefix("HTTP/1.1 207"))
            #expect(answer.header("Content-Length") == nil)
            #expect(answer.closed)
            #expect(answer.body.count > 1 << 20)
            #expect(answer.text.contains("<!--") && !answer.text.contains("-->"))
            let request = try #require(server.requests.last)
            #expect(server.bytesSent(to: request) >= Int64(1 << 20))
        }
    }

    @Test("requests are recorded: method, path, query, headers and body size")
    func recording() async throws {
        try await Hostile.withServer(.webdavFile(Array("hello".utf8))) { server in
            let put = "PUT /a%20b.txt?x=1 HTTP/1.1\r\nHost: x\r\nX-Test: yes\r\nContent-Length: 7\r\nConnection: close\r\n\r\nabcdefg"
            _ = try await RawClient.exchange(port: server.port, put)
            let recorded = try #require(server.requests.first)
            #expect(recorded.method == "PUT")
            #expect(recorded.path == "/a%20b.txt")
            #expect(recorded.query == "x=1")
            #expect(recorded.header("x-test") == "yes")
            #expect(recorded.bodySize == 7)
            let get = try await RawClient.exchange(port: server.port, RawClient.get(file, port: server.port))
            #expect(get.body == Array("hello".utf8))
        }
    }
}
