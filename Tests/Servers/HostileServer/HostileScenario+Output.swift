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
