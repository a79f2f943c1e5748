import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("https://files.example.com/nuxeo/")

private func request(
    path: String, query: [TemplateField] = [], headers: [TemplateField] = [], _ arguments: TemplateArguments
) throws -> TransportRequest {
    try RequestTemplate(name: "t", path: path, query: query, headers: headers).makeRequest(baseURL: base, arguments: arguments)
}

private func code(_ body: () throws -> Void) -> ProviderError.Code? {
    do {
        try body()
        return nil
    } catch let error as ProviderError {
        return error.code
    } catch {
        return nil
    }
}

@Suite("RequestTemplate encoding")
struct TemplateEncodingTests {
    static let hostile = "a/b+c d%e?f#g&h=i;j"

    @Test("a path segment value encodes / + space % ? # & = ;")
    func pathSegment() throws {
        let built = try request(path: "/api/v1/id/{uid}/@children", ["uid": .string(Self.hostile)])
        #expect(built.url.absoluteString == "https://files.example.com/nuxeo/api/v1/id/a%2Fb%2Bc%20d%25e%3Ff%23g%26h%3Di%3Bj/@children")
        #expect(built.url.query == nil, "a ? in a value never starts a query")
        #expect(built.url.fragment == nil, "a # in a value never starts a fragment")
    }

    @Test("a {path*} value keeps its slashes and encodes each segment")
    func pathStar() throws {
        let built = try request(path: "/api/v1/path{path*}", ["path": "/default-domain/workspaces/Q1 report #2?.pdf"])
        #expect(
            built.url.absoluteString
                == "https://files.example.com/nuxeo/api/v1/path/default-domain/workspaces/Q1%20report%20%232%3F.pdf")
        #expect(try request(path: "/api/v1/path{path*}", ["path": "/"]).url.absoluteString == "https://files.example.com/nuxeo/api/v1/path/")
    }

    @Test("unicode is percent-encoded as UTF-8, NFC and NFD kept apart")
    func unicode() throws {
        let nfc = try request(path: "/f/{name}", ["name": "caf\u{E9} ☃"]).url.absoluteString
        let nfd = try request(path: "/f/{name}", ["name": "cafe\u{301}"]).url.absoluteString
        #expect(nfc.hasSuffix("/f/caf%C3%A9%20%E2%98%83"))
        #expect(nfd.hasSuffix("/f/cafe%CC%81"))
    }

    @Test("dot segments and empty required values are refused in the path")
    func pathTraversal() {
        #expect(code { _ = try request(path: "/id/{uid}/@children", ["uid": ".."]) } == .invalidArgument)
        #expect(code { _ = try request(path: "/id/{uid}", ["uid": "."]) } == .invalidArgument)
        #expect(code { _ = try request(path: "/path{p*}", ["p": "/a/../../admin"]) } == .invalidArgument)
        #expect(code { _ = try request(path: "/id/{uid}/@children", ["uid": ""]) } == .invalidArgument)
        #expect((try? request(path: "/id/{uid}", ["uid": "..x"]))?.url.absoluteString.hasSuffix("/id/..x") == true)
    }

    @Test("a query value is form-encoded: + is %2B, space %20, & = # ? % encoded")
    func queryValue() throws {
        let built = try request(
            path: "/search", query: [TemplateField("q", "{q}"), TemplateField("fixed name", "a+b")], ["q": .string(Self.hostile)])
        #expect(built.url.query(percentEncoded: true) == "q=a%2Fb%2Bc%20d%25e%3Ff%23g%26h%3Di%3Bj&fixed%20name=a%2Bb")
        let items = URLComponents(url: built.url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(items?.first?.value == Self.hostile, "decodes back to the exact value")
        #expect(built.url.fragment == nil)
    }

    @Test("an inline query in the path is encoded like query fields")
    func inlineQuery() throws {
        let built = try request(path: "/id/{uid}/@children?currentPageIndex={page}&pageSize=50&flag", ["uid": "u?1", "page": "1 +2"])
        #expect(built.url.absoluteString == "https://files.example.com/nuxeo/id/u%3F1/@children?currentPageIndex=1%20%2B2&pageSize=50&flag")
    }

    @Test("an array in a whole query value repeats the parameter")
    func repeatedQuery() throws {
        let built = try request(path: "/q", query: [TemplateField("queryParams", "{params}")], ["params": ["a b", "c&d", 3]])
        #expect(built.url.query(percentEncoded: true) == "queryParams=a%20b&queryParams=c%26d&queryParams=3")
    }

    @Test("the base URL's path and query are kept")
    func baseURL() throws {
        let template = RequestTemplate(name: "t", path: "api/v1/user/{name}", query: [TemplateField("a", "1")])
        let withQuery = try template.makeRequest(baseURL: url("http://h:8080/nx?tenant=x#frag"), arguments: ["name": "me"])
        #expect(withQuery.url.absoluteString == "http://h:8080/nx/api/v1/user/me?tenant=x&a=1")
        let root = try RequestTemplate(name: "t", path: "").makeRequest(baseURL: url("http://h/nx/"))
        #expect(root.url.absoluteString == "http://h/nx/")
    }

    @Test("header values are substituted as they are, and CR, LF or NUL is refused")
    func headers() throws {
        let headers = [TemplateField("X-Authentication-Token", "{token}"), TemplateField("properties", "{schemas}")]
        let built = try request(path: "/", headers: headers, ["token": "a+b c/%", "schemas": ["dublincore", "file"]])
        #expect(built.headers.first(name: "X-Authentication-Token") == "a+b c/%")
        #expect(built.headers.first(name: "properties") == "dublincore,file")
        for hostile in ["a\r\nX-Evil: 1", "a\nb", "a\rb", "a\u{0}b"] {
            #expect(code { _ = try request(path: "/", headers: headers, ["token": .string(hostile), "schemas": "*"]) } == .invalidArgument)
        }
    }

    @Test("method, idempotency and content type")
    func requestShape() throws {
        let template = RequestTemplate(
            name: "t", method: "PROPFIND", path: "/", headers: [TemplateField("Content-Type", "text/xml")], body: .text("<a/>"),
            isIdempotent: false, timeout: 2.5)
        let built = try template.makeRequest(baseURL: base)
        #expect(built.deadline == .milliseconds(2500))
        #expect(try RequestTemplate(name: "t", path: "/").makeRequest(baseURL: base).deadline == nil)
        #expect(throws: ProviderError.self) { try RequestTemplate(name: "t", path: "/", timeout: -1).validate() }
        #expect(built.method.rawValue == "PROPFIND")
        #expect(!built.isIdempotent)
        #expect(built.headers["content-type"] == ["text/xml"], "a header the template sets wins over the default")
        let post = try RequestTemplate(name: "p", method: "POST", path: "/", body: .text("x"), contentType: "text/csv").makeRequest(baseURL: base)
        #expect(post.headers.first(name: "content-type") == "text/csv")
        #expect(!post.isIdempotent)
    }
}
