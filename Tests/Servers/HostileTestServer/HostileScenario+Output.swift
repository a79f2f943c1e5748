import Foundation

extension HostileScenario {
    /// Names that would rewrite a terminal or forge listing lines when printed raw.
    public static let controlNames = [
        "title\u{1B}]0;pwned\u{07}.txt",
        "clear\u{1B}[2J\u{1B}[H.txt",
        "two\nd          -  2023-01-02 10:00  forged.txt",
        "cr\rforged-over.txt",
        "del\u{7F}and\u{9B}csi.txt",
    ]

    /// A WebDAV folder whose entries have the names `names` (percent-encoded in the hrefs, so
    /// the XML is well-formed and the names arrive exact).
    public static func webdavNames(_ names: [String] = controlNames) -> HostileScenario {
        webdav("names with control characters", entries: names.map { .file($0, size: 10) }) { _, _ in
            .complete(200, body: Array("0123456789".utf8))
        }
    }

    /// A WebDAV server (`OPTIONS` answers) whose every other request is refused with an error
    /// body quoting the request's `Authorization` header, as text and as a sabre `s:message`.
    public static let echoAuthorization = HostileScenario("an error body echoing Authorization") { request, _ in
        if request.method == "OPTIONS" {
            return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")])
        }
        let echoed = request.header("Authorization") ?? "(none)"
        let xml = #"<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">"#
            + "<s:exception>Sabre\\DAV\\Exception\\Forbidden</s:exception>"
            + "<s:message>Access denied for Authorization: \(echoed)</s:message></d:error>"
        return .complete(403, headers: [("Content-Type", "application/xml; charset=utf-8"), ("X-Echo", echoed)], body: Array(xml.utf8))
    }
}

extension HostileScenario {
    /// Names that read backwards or hide characters: a bidi override, zero-width and byte-order
    /// marks, C1 controls (NEL, CSI), a line separator.
    public static let invisibleNames = [
        "report\u{202E}fdp.exe",
        "zero\u{200B}width.txt",
        "bom\u{FEFF}.txt",
        "nel\u{85}next.txt",
        "csi\u{9B}31m.txt",
        "ls\u{2028}sep.txt",
    ]

    /// Text a server puts in its error messages to take over a terminal.
    public static let terminalTakeover = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[Hforged\rline\u{9B}1m"

    /// A WebDAV server whose every request but `OPTIONS` is refused 403 with a sabre `s:message`
    /// holding ``terminalTakeover`` and the request's `Authorization`.
    public static let controlsInErrorBody = HostileScenario("an error message with terminal escapes") { request, _ in
        if request.method == "OPTIONS" { return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")]) }
        let echoed = request.header("Authorization") ?? "(none)"
        let xml = #"<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">"#
            + "<s:exception>Sabre\\DAV\\Exception\\Forbidden</s:exception>"
            + "<s:message>\(terminalTakeover) denied for \(echoed)</s:message></d:error>"
        return .complete(403, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(xml.utf8))
    }

    /// A WebDAV server answering every request but `OPTIONS` with a 401 whose `WWW-Authenticate`
    /// realm and body quote the request's `Authorization` and ``terminalTakeover``.
    public static let echoingChallenge = HostileScenario("a 401 challenge quoting the credential") { request, _ in
        if request.method == "OPTIONS" { return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")]) }
        let echoed = request.header("Authorization") ?? "(none)"
        return .text(
            401, "\(terminalTakeover) bad credential \(echoed)",
            headers: [("WWW-Authenticate", #"Basic realm="\#(echoed)""#)])
    }

    /// A Pydio server whose `ls` fails with an `ERROR` message quoting `secret` (the password
    /// the test signs in with) and ``terminalTakeover``.
    public static func pydioEchoingError(_ secret: String) -> HostileScenario {
        HostileScenario(
            "a Pydio error quoting the password",
            route: HostilePydio.route(ls: { _, _ in
                HostilePydio.xml(
                    #"<tree><message type="ERROR">\#(HostilePydio.escape(terminalTakeover)) wrong password \#(HostilePydio.escape(secret))</message></tree>"#)
            }))
    }

    /// A Nuxeo server whose `@children` fails with a JSON exception message holding
    /// ``terminalTakeover`` (JSON-escaped).
    public static let nuxeoControlsInError = HostileScenario(
        "a Nuxeo exception with terminal escapes",
        route: HostileNuxeo.route { _, _, _ in
            HostileNuxeo.json(500, #"{"entity-type":"exception","status":500,"message":"\u001b]0;pwned\u0007\u001b[2Jforged\rline\u009b1m"}"#)
        })
}
