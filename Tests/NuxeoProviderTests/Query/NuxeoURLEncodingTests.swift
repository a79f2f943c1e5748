import Foundation
import Testing
@testable import NuxeoProvider

@Suite("Nuxeo URL encoding") struct NuxeoURLEncodingTests {
    @Test("query values escape everything outside unreserved, + included")
    func queryValue() {
        #expect(NuxeoURLEncoding.queryValue("SELECT * FROM Document WHERE dc:title = 'a+b&c=d?e#f%g/h é'")
            == "SELECT%20%2A%20FROM%20Document%20WHERE%20dc%3Atitle%20%3D%20%27a%2Bb%26c%3Dd%3Fe%23f%25g%2Fh%20%C3%A9%27")
        #expect(NuxeoURLEncoding.queryValue("ecm:fulltext = 'C++'") == "ecm%3Afulltext%20%3D%20%27C%2B%2B%27")
        #expect(NuxeoURLEncoding.queryValue("AZaz09-._~") == "AZaz09-._~")
        #expect(NuxeoURLEncoding.queryValue("📄") == "%F0%9F%93%84")
    }

    @Test("a compiled query round-trips through the query string")
    func roundTrip() throws {
        let nxql = try NXQLCompiler().compile(.nameContains("1+1=2 & 50% 'off'\n"))
        let encoded = NuxeoURLEncoding.queryString([(name: "query", value: nxql), (name: "pageSize", value: "50")])
        #expect(!encoded.contains("+"))
        #expect(encoded.hasSuffix("&pageSize=50"))
        let value = try #require(encoded.split(separator: "&").first?.dropFirst("query=".count))
        #expect(String(value).removingPercentEncoding == nxql)
    }

    @Test("document paths keep slashes and escape each segment")
    func documentPath() {
        #expect(NuxeoURLEncoding.documentPath("/default-domain/workspaces/a b/c?d#e") == "/default-domain/workspaces/a%20b/c%3Fd%23e")
        #expect(NuxeoURLEncoding.pathSegment("@children a?b#c") == "%40children%20a%3Fb%23c")
        #expect(NuxeoURLEncoding.documentPath("/") == "/")
    }
}
