import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("http://127.0.0.1:8080/nuxeo")

private func build(_ path: String, _ arguments: TemplateArguments = .none, query: [TemplateField] = []) throws -> String {
    try RequestTemplate(name: "t", path: path, query: query).makeRequest(baseURL: base, arguments: arguments).url.absoluteString
}

private func invalidArgument(_ body: () throws -> Void) -> Bool {
    do {
        try body()
        return false
    } catch let error as ProviderError {
        return error.code == .invalidArgument
    } catch {
        return false
    }
}

@Suite("RequestTemplate placeholders")
struct TemplatePlaceholderTests {
    private let document: JSONValue = [
        "uid": "a1b2", "path": "/default-domain/ws",
        "properties": ["file:content": ["name": "report.pdf", "length": 290], "dc:title": "Report"],
        "tags": ["x", "y"],
    ]

    @Test("named and indexed placeholders")
    func namedAndIndexed() throws {
        #expect(try build("/api/v1/id/{uid}", ["uid": "a1b2"]) == "http://127.0.0.1:8080/nuxeo/api/v1/id/a1b2")
        #expect(try build("/api/v1/id/%0/@children", ["a1b2"]) == "http://127.0.0.1:8080/nuxeo/api/v1/id/a1b2/@children")
        #expect(try build("/a/{0}/b/%1", ["x", 7]) == "http://127.0.0.1:8080/nuxeo/a/x/b/7")
        let mixed = TemplateArguments(["op"], named: ["uid": "u"])
        #expect(try build("/{uid}/%0", mixed) == "http://127.0.0.1:8080/nuxeo/u/op")
    }

    @Test("property access, nested, on positional and named arguments, and array indexes")
    func propertyAccess() throws {
        let arguments = TemplateArguments(["ignored", document], named: ["doc": document])
        #expect(try build("/id/%1[uid]", arguments).hasSuffix("/id/a1b2"))
        #expect(try build("/id/{doc[uid]}", arguments).hasSuffix("/id/a1b2"))
        #expect(try build("/f/{doc[properties][file:content][name]}", arguments).hasSuffix("/f/report.pdf"))
        #expect(try build("/f/%1[properties][file:content][length]", arguments).hasSuffix("/f/290"))
        #expect(try build("/t/{doc[tags][1]}", arguments).hasSuffix("/t/y"))
    }

    @Test("values of every kind are written as text")
    func scalarKinds() throws {
        let arguments: TemplateArguments = ["i": 42, "d": 1.5, "whole": 3.0, "b": true, "list": ["a", 2, false]]
        #expect(try build("/{i}/{d}/{whole}/{b}/{list}", arguments).hasSuffix("/42/1.5/3/true/a,2,false"))
    }

    @Test("an Encodable model can be passed and read with property access")
    func encodableArgument() throws {
        struct Doc: Encodable { var uid: String; var title: String }
        let value = try JSONValue(encoding: Doc(uid: "u-1", title: "T"))
        #expect(try build("/id/%0[uid]", [value]).hasSuffix("/id/u-1"))
    }

    @Test("optional placeholders are empty when missing, and leave out a query parameter or header")
    func optional() throws {
        #expect(try build("/a{suffix?}", .none) == "http://127.0.0.1:8080/nuxeo/a")
        #expect(try build("/a{suffix?}", ["suffix": "-b"]) == "http://127.0.0.1:8080/nuxeo/a-b")
        let query = [TemplateField("pageSize", "{size?}"), TemplateField("sortBy", "dc:{sort?}"), TemplateField("x", "1")]
        #expect(try build("/q?currentPageIndex={page?}", .none, query: query) == "http://127.0.0.1:8080/nuxeo/q?x=1")
        #expect(
            try build("/q?currentPageIndex={page?}", ["page": 2, "size": 10, "sort": "title"], query: query)
                == "http://127.0.0.1:8080/nuxeo/q?currentPageIndex=2&pageSize=10&sortBy=dc%3Atitle&x=1")
        let template = RequestTemplate(name: "h", path: "/", headers: [TemplateField("X-Opt", "{v?}"), TemplateField("X-Fixed", "1")])
        let request = try template.makeRequest(baseURL: base)
        #expect(request.headers["X-Opt"].isEmpty)
        #expect(request.headers.first(name: "X-Fixed") == "1")
    }

    @Test("a missing required argument, a null, a bad property path or an object in text is invalidArgument")
    func missing() {
        #expect(invalidArgument { _ = try build("/id/{uid}") })
        #expect(invalidArgument { _ = try build("/id/%0", .none) })
        #expect(invalidArgument { _ = try build("/id/%2", ["a", "b"]) })
        #expect(invalidArgument { _ = try build("/id/{uid}", ["uid": .null]) })
        #expect(invalidArgument { _ = try build("/id/{doc[nope]}", ["doc": document]) })
        #expect(invalidArgument { _ = try build("/id/{doc[uid][deeper]}", ["doc": document]) })
        #expect(invalidArgument { _ = try build("/id/{doc}", ["doc": document]) })
        #expect(invalidArgument { _ = try build("/q", query: [TemplateField("a", "{x}")]) })
    }

    @Test("malformed templates are invalidArgument")
    func malformed() {
        for path in ["/{", "/{}", "/{a", "/{a[b}", "/{a[]}", "/%", "/%x", "/{a b}", "/{a?x}"] {
            #expect(invalidArgument { _ = try build(path, ["a": "1"]) }, "\(path)")
        }
        #expect(invalidArgument { try RequestTemplate(name: "", path: "/").validate() })
        #expect(invalidArgument { try RequestTemplate(name: "t", method: "GE T", path: "/").validate() })
        #expect(invalidArgument { try RequestTemplate(name: "t", path: "/", expectedStatuses: []).validate() })
        #expect(invalidArgument { try RequestTemplate(name: "t", path: "/", headers: [TemplateField("Bad Name", "x")]).validate() })
    }

    @Test("escapes: %% {{ }} are literal")
    func escapes() throws {
        #expect(try build("/a%%b", .none) == "http://127.0.0.1:8080/nuxeo/a%25b")
        let template = RequestTemplate(name: "t", method: "POST", path: "/", body: .text("{{\"a\": \"{v}\"}} 100%%"))
        let request = try template.makeRequest(baseURL: base, arguments: ["v": "x"])
        #expect(bodyText(request) == "{\"a\": \"x\"} 100%")
    }
}

/// The text of a request's in-memory body.
func bodyText(_ request: TransportRequest) -> String? {
    guard case .bytes(let buffer) = request.body else { return nil }
    return String(buffer: buffer)
}
