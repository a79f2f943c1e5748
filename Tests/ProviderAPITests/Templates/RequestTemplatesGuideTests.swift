import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI
import ProviderTesting
import Testing

// The worked example of HTTPProviderKit's "Request templates" article, run as a third party runs
// it: plain imports, public API only, against a RecordingTransport that plays the server.

/// The catalog an adapter ships (a JSON resource of its package): one template per endpoint.
private let acmeTemplates = #"""
    {
      "templates": {
        "children": {
          "path": "/api/v2/folders/{folder}/children",
          "query": [["cursor", "{cursor?}"], ["limit", "{limit?}"]],
          "headers": [["Accept", "application/json"]],
          "decoder": "page"
        },
        "createFolder": {
          "method": "POST",
          "path": "/api/v2/folders/{parent}/children",
          "body": {"json": {"name": "{name}", "kind": "folder"}},
          "expectedStatuses": [201],
          "isIdempotent": false,
          "decoder": "entry"
        },
        "download": {
          "path": "/api/v2/files/{file}/content",
          "headers": [["Range", "{range?}"]],
          "expectedStatuses": [200, 206],
          "decoder": "raw"
        },
        "delete": {
          "method": "DELETE",
          "path": "/api/v2/entries/{entry}",
          "expectedStatuses": [204],
          "decoder": "none"
        },
        "search": {
          "path": "/api/v2/search",
          "query": [["q", "{text}"], ["kind", "{kinds?}"]],
          "decoder": "page"
        }
      }
    }
    """#

/// One entry of the server's listings.
private struct AcmeEntry: Decodable, Sendable, Equatable {
    var id: String
    var name: String
    var kind: String
    var size: Int64?
}

/// A page of entries and the cursor of the next one.
private struct AcmePage: Decodable, Sendable {
    var entries: [AcmeEntry]
    var next: String?
}

/// The server's error body, `{"error": "name_taken", "message": "…"}`, as a `ProviderError`.
private let acmeErrors: @Sendable (TemplateResponseHead, ByteBuffer) -> ProviderError? = { head, body in
    struct Failure: Decodable { var error: String; var message: String? }
    guard let failure = try? JSONDecoder().decode(Failure.self, from: Data(body.readableBytesView)) else { return nil }
    switch failure.error {
    case "name_taken": return ProviderError(.alreadyExists, failure.message, httpStatus: head.status, request: head.request)
    case "no_such_entry": return ProviderError(.notFound, failure.message, httpStatus: head.status, request: head.request)
    default: return nil
    }
}

/// The templates executor an adapter keeps, over its own `RequestExecutor`.
private func acmeTemplatesExecutor(transport: any HTTPTransport) throws -> (RequestTemplateExecutor, RequestTemplateCatalog) {
    let catalog = try RequestTemplateCatalog(data: Data(acmeTemplates.utf8))
    var decoders = TemplateDecoderRegistry()
    decoders.register("entry", as: AcmeEntry.self)
    decoders.register("page", as: AcmePage.self)
    let executor = RequestExecutor(transport: transport, authenticator: BearerAuthenticator(token: "secret-token"), retry: .none)
    let templates = RequestTemplateExecutor(
        executor: executor, baseURL: URL(string: "https://files.example.com/acme")!, decoders: decoders, catalog: catalog,
        errorMapper: acmeErrors)
    return (templates, catalog)
}

/// Every entry of a folder, page after page, as an adapter's `list` would page.
private func allChildren(of folder: String, templates: RequestTemplateExecutor) async throws -> [AcmeEntry] {
    var entries: [AcmeEntry] = []
    var cursor: String?
    repeat {
        var arguments: [String: JSONValue] = ["folder": .string(folder), "limit": 2]
        if let cursor { arguments["cursor"] = .string(cursor) }
        let page = try await templates.execute("children", arguments: TemplateArguments(named: arguments), as: AcmePage.self)
        entries += page.entries
        cursor = page.next
    } while cursor != nil
    return entries
}

/// The server: answers by path, as the Acme API would.
private func acmeServer(_ request: TransportRequest) -> (status: Int, headers: [(String, String)], body: String) {
    let json = [("Content-Type", "application/json")]
    let path = request.url.path
    let query = request.url.query ?? ""
    switch (request.method.rawValue, path) {
    case ("GET", "/acme/api/v2/folders/root/children") where !query.contains("cursor="):
        return (200, json, #"{"entries": [{"id": "f1", "name": "a.txt", "kind": "file", "size": 5}, {"id": "d1", "name": "Docs", "kind": "folder"}], "next": "p2"}"#)
    case ("GET", "/acme/api/v2/folders/root/children"):
        return (200, json, #"{"entries": [{"id": "f2", "name": "b & c.txt", "kind": "file", "size": 0}]}"#)
    case ("POST", "/acme/api/v2/folders/root/children"):
        return (409, json, #"{"error": "name_taken", "message": "Docs exists"}"#)
    case ("POST", "/acme/api/v2/folders/d1/children"):
        return (201, json, #"{"id": "d2", "name": "Q3 \"final\"", "kind": "folder"}"#)
    case ("GET", "/acme/api/v2/files/f1/content"):
        return request.headers.first(name: "Range") == "bytes=1-3" ? (206, [("Content-Range", "bytes 1-3/5")], "ell") : (200, [], "hello")
    case ("DELETE", "/acme/api/v2/entries/f2"):
        return (204, [], "")
    case ("DELETE", _):
        return (404, json, #"{"error": "no_such_entry"}"#)
    case ("GET", "/acme/api/v2/search"):
        return (200, json, #"{"entries": [{"id": "f1", "name": "a.txt", "kind": "file", "size": 5}]}"#)
    default:
        return (500, [], "unexpected \(request.method.rawValue) \(path)")
    }
}

@Suite("Request templates guide, as a third party uses it")
struct RequestTemplatesGuideTests {
    @Test("a request renders from its template without being sent")
    func renders() throws {
        let catalog = try RequestTemplateCatalog(data: Data(acmeTemplates.utf8))
        let request = try catalog.template(named: "search").makeRequest(
            baseURL: URL(string: "https://files.example.com/acme")!, arguments: ["text": "report 2024", "kinds": ["file", "folder"]])
        #expect(request.method == .GET)
        #expect(request.url.absoluteString == "https://files.example.com/acme/api/v2/search?q=report%202024&kind=file&kind=folder")
    }

    @Test("list with paging, create, download a range, delete and search run through the executor; server errors map to codes")
    func worked() async throws {
        let transport = RecordingTransport(answer: acmeServer)
        let (templates, catalog) = try acmeTemplatesExecutor(transport: transport)

        let listed = try await allChildren(of: "root", templates: templates)
        #expect(listed.map(\.name) == ["a.txt", "Docs", "b & c.txt"])
        #expect(transport.requests.map(\.url.absoluteString) == [
            "https://files.example.com/acme/api/v2/folders/root/children?limit=2",
            "https://files.example.com/acme/api/v2/folders/root/children?cursor=p2&limit=2",
        ])
        #expect(transport.requests.allSatisfy { $0.headers.first(name: "Authorization") == "Bearer secret-token" })

        let made = try await templates.execute("createFolder", arguments: ["parent": "d1", "name": #"Q3 "final""#], as: AcmeEntry.self)
        #expect(made == AcmeEntry(id: "d2", name: #"Q3 "final""#, kind: "folder"))
        let post = try #require(transport.requests.last)
        guard case .bytes(let body)? = post.body else { Issue.record("the body is not in memory"); return }
        let sent = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: String]
        #expect(sent == ["name": #"Q3 "final""#, "kind": "folder"], "the quotes travel JSON-escaped")
        #expect(post.headers.first(name: "Content-Type") == "application/json")

        let taken = await #expect(throws: ProviderError.self) {
            try await templates.execute("createFolder", arguments: ["parent": "root", "name": "Docs"], as: AcmeEntry.self)
        }
        #expect(taken?.code == .alreadyExists)
        #expect(taken?.httpStatus == 409)

        let part = try await templates.execute("download", arguments: ["file": "f1", "range": "bytes=1-3"], as: ByteBuffer.self)
        #expect(String(buffer: part) == "ell")
        let response = try await templates.response(for: catalog.template(named: "download"), arguments: ["file": "f1"])
        var streamed: [UInt8] = []
        for try await chunk in response.body { streamed += chunk.readableBytesView }
        #expect(String(decoding: streamed, as: UTF8.self) == "hello")
        #expect(transport.requests.last?.headers.first(name: "Range") == nil, "an optional header left out when missing")

        _ = try await templates.execute("delete", arguments: ["entry": "f2"], as: Void.self)
        let missing = await #expect(throws: ProviderError.self) {
            try await templates.execute("delete", arguments: ["entry": "nope"], as: Void.self)
        }
        #expect(missing?.code == .notFound)

        let found = try await templates.execute("search", arguments: ["text": "a"], as: AcmePage.self)
        #expect(found.entries.map(\.id) == ["f1"])
    }
}
