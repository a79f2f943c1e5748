import Foundation
import NIOCore
import NuxeoProvider
import ProviderAPI
import Testing
import HTTPProviderKit

/// The adapter's endpoint catalog: every template is valid, and builds the requests the server expects.
@Suite("Nuxeo endpoint templates")
struct NuxeoEndpointsTests {
    let base = URL(string: "https://demo.example.com/nuxeo")!

    private func request(_ name: String, _ arguments: TemplateArguments) throws -> TransportRequest {
        try NuxeoEndpoints.standard().template(named: name).makeRequest(baseURL: base, arguments: arguments)
    }

    @Test("the built-in catalog holds every template the client needs, and each validates")
    func catalog() throws {
        let catalog = try NuxeoEndpoints.standard()
        #expect(NuxeoEndpoints.requiredNames.isSubset(of: Set(catalog.names)))
        for name in catalog.names { try catalog.template(named: name).validate() }
    }

    @Test("a catalog missing a template is refused by name")
    func missingTemplate() throws {
        let error = #expect(throws: ProviderError.self) {
            _ = try NuxeoEndpoints.catalog(json: Data(#"{"templates": {"me": {"path": "/api/v1/me", "decoder": "user"}}}"#.utf8))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message?.contains("documentById") == true)
    }

    @Test("document paths keep their slashes and encode each segment")
    func documentPath() throws {
        let made = try request("documentByPath", ["path": "/default-domain/a b/100%#?"])
        #expect(made.url.absoluteString == "https://demo.example.com/nuxeo/api/v1/path/default-domain/a%20b/100%25%23%3F")
    }

    @Test("NXQL in a query string: + and & are escaped, so the servlet does not read a space or a new parameter")
    func searchQuery() throws {
        let made = try request("search", ["query": "SELECT * FROM Document WHERE dc:title = 'a+b & c'", "page": 2, "pageSize": 50])
        let query = try #require(made.url.query(percentEncoded: true))
        #expect(query.hasPrefix("query=SELECT%20%2A%20FROM%20Document%20WHERE%20dc%3Atitle%20%3D%20%27a%2Bb%20%26%20c%27"))
        #expect(query.hasSuffix("&pageSize=50&currentPageIndex=2"))
        #expect(!query.contains("sortBy"))
    }

    @Test("page provider parameters repeat, in order, escaped")
    func pageProvider() throws {
        let made = try request("pageProvider", [
            "provider": "tree_children", "queryParams": ["a+b", "c d"], "page": 0, "pageSize": 20,
        ])
        #expect(made.url.path == "/nuxeo/api/v1/search/pp/tree_children/execute")
        #expect(made.url.query(percentEncoded: true) == "queryParams=a%2Bb&queryParams=c%20d&pageSize=20&currentPageIndex=0")
    }

    @Test("a batch upload names the file percent-encoded and declares the chunk")
    func batchUpload() throws {
        let client = try NuxeoClient(baseURL: base, executor: RequestExecutor(transport: AsyncHTTPClientTransport.shared))
        let made = try client.batchUploadRequest(
            batch: "batchId-1", fileName: "Résumé final+v2.pdf", mimeType: "application/pdf", fileSize: 123, chunk: (1, 3))
        #expect(made.url.path == "/nuxeo/api/v1/upload/batchId-1/0")
        #expect(made.headers.first(name: "X-File-Name") == "R%C3%A9sum%C3%A9%20final%2Bv2.pdf")
        #expect(made.headers.first(name: "X-Upload-Type") == "chunked")
        #expect(made.headers.first(name: "X-Upload-Chunk-Index") == "1")
        #expect(made.headers.first(name: "X-Upload-Chunk-Count") == "3")
        #expect(made.headers.first(name: "X-File-Size") == "123")
        #expect(made.headers.first(name: "Content-Type") == "application/octet-stream")
        let whole = try client.batchUploadRequest(batch: "batchId-1", fileName: "a.txt", mimeType: "text/plain", fileSize: 1)
        #expect(whole.headers.first(name: "X-Upload-Type") == nil)
    }

    @Test("an Automation body carries input, params and context as JSON")
    func automationBody() throws {
        let made = try request("automation", [
            "operation": "Document.Move", "input": "doc:abc", "params": ["target": "def", "name": "n"], "context": [:],
        ])
        guard case .bytes(let buffer) = made.body else {
            Issue.record("no body")
            return
        }
        let json = try JSONValue(json: Data(buffer.readableBytesView))
        #expect(json["input"]?.stringValue == "doc:abc")
        #expect(json["params"]?["target"]?.stringValue == "def")
        #expect(made.url.path == "/nuxeo/api/v1/automation/Document.Move")
        #expect(made.isIdempotent == false)
    }

    @Test("settings read the context path, root, repository and options from the configuration")
    func settings() throws {
        let configuration = ProviderConfiguration(
            url: URL(string: "https://ann@demo.example.com/nuxeo/default-domain/workspaces/Q%203")!,
            options: ["repository": "archive", "auth": "token", "chunkSize": "4096", "delete": "trash"])
        let settings = try NuxeoProviderSettings(configuration)
        #expect(settings.baseURL.absoluteString == "https://demo.example.com/nuxeo")
        #expect(settings.rootPath == "/default-domain/workspaces/Q 3")
        #expect(settings.defaults.repository == "archive")
        #expect(settings.usesTokenAuthentication)
        #expect(settings.chunkSize == 4096)
        #expect(settings.deleteMovesToTrash)
        for bad in [["auth": "cookie"], ["chunkSize": "12"], ["delete": "shred"]] {
            #expect(throws: ProviderError.self) {
                _ = try NuxeoProviderSettings(ProviderConfiguration(url: URL(string: "https://h/nuxeo/")!, options: bad))
            }
        }
        let custom = try NuxeoProviderSettings(ProviderConfiguration(
            url: URL(string: "http://h:8080/ws/default-domain")!, options: ["contextPath": "/"]))
        #expect(custom.baseURL.absoluteString == "http://h:8080")
        #expect(custom.rootPath == "/ws/default-domain")
    }

    @Test("the factory splits a nuxeo URL at its context path")
    func locate() throws {
        let (root, path) = try NuxeoProviderFactory().locate(URL(string: "http://h:8080/nuxeo/default-domain/a%20b/c.txt")!)
        #expect(root.absoluteString == "http://h:8080/nuxeo/")
        #expect(path == "/default-domain/a b/c.txt")
    }
}
