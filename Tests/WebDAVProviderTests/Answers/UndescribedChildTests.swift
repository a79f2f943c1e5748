import Foundation
import NIOHTTP1
import ProviderAPI
import Testing
import WebDAVProvider

/// A child a multistatus names with an error status of its own is left out of the listing, which
/// then says it is partial: nothing may be deleted on its strength.
@Suite("WebDAV listings that name a child they do not describe")
struct UndescribedChildTests {
    static func listing(withUndescribed undescribed: Bool) -> ScriptedDAVServer.Answer {
        let child = { (name: String) in
            """
            <d:response><d:href>/f/\(name)</d:href><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>1</d:getcontentlength>
            <d:getetag>"\(name)"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            """
        }
        let forbidden = undescribed ? "<d:response><d:href>/f/secret.txt</d:href><d:status>HTTP/1.1 403 Forbidden</d:status></d:response>" : ""
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>/f/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\(child("a.txt"))\(forbidden)\(child("b.txt"))</d:multistatus>
            """
        return ScriptedDAVServer.Answer(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: body)
    }

    @Test("a child answered 403 is left out and makes the listing partial, by pages too; without it the listing ended", arguments: [true, false])
    func undescribedChild(undescribed: Bool) async throws {
        let server = ScriptedDAVServer { method, path, _ in
            method == "PROPFIND" && path == "/f/" ? Self.listing(withUndescribed: undescribed) : ScriptedDAVServer.notFound
        }
        let provider = try server.provider()
        let whole = try await provider.listing("/f")
        #expect(whole.items.map(\.name) == ["a.txt", "b.txt"])
        #expect(whole.completeness == (undescribed ? .partial : .ended))
        let paged = try await provider.listing("/f", pageSize: 1)
        #expect(paged.items.map(\.name) == ["a.txt", "b.txt"])
        #expect(paged.completeness.isComplete == !undescribed)
    }
}
