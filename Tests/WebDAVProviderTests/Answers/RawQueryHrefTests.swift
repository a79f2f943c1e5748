import Foundation
import NIOHTTP1
import ProviderAPI
import Testing
import WebDAVProvider

/// A server that does not escape `?` and `#` in the hrefs of its listings (chezdav writes
/// `http://host/f/p?q.txt` for the file `p?q.txt`): cut at the raw character the href names
/// another item (`p`), so such a child is left out and the listing says it is partial, never
/// misnamed.
@Suite("WebDAV listings whose hrefs hold a raw ? or #")
struct RawQueryHrefTests {
    static func listing(rawNames: Bool) -> ScriptedDAVServer.Answer {
        let child = { (href: String) in
            """
            <d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>1</d:getcontentlength>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            """
        }
        let raw = rawNames ? child("/f/p?q.txt") + child("/f/p#q.txt") : ""
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>/f/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\(child("/f/b.txt"))\(raw)\(child("/f/p%3Fr.txt"))</d:multistatus>
            """
        return ScriptedDAVServer.Answer(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: body)
    }

    @Test("a child named by a raw ? or # is left out and makes the listing partial; escaped ones are listed", arguments: [true, false])
    func rawQueryOrFragment(rawNames: Bool) async throws {
        let server = ScriptedDAVServer { method, path, _ in
            method == "PROPFIND" && path == "/f/" ? Self.listing(rawNames: rawNames) : ScriptedDAVServer.notFound
        }
        let provider = try server.provider()
        let whole = try await provider.listing("/f")
        // Never `p`, the name the href names when cut at the raw character.
        #expect(whole.items.map(\.name) == ["b.txt", "p?r.txt"])
        #expect(whole.completeness == (rawNames ? .partial : .ended))
        let paged = try await provider.listing("/f", pageSize: 1)
        #expect(paged.items.map(\.name) == ["b.txt", "p?r.txt"])
        #expect(paged.completeness.isComplete == !rawNames)
    }
}
