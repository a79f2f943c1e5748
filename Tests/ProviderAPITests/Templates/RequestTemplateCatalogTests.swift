import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("https://demo.example.com/nuxeo")

/// A Nemo Connect–style property list: services keyed by name, `%0` / `%1[property]` placeholders.
private let nemoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
        <key>getChildren</key>
        <dict>
            <key>method</key><string>GET</string>
            <key>path</key><string>/api/v1/id/%0[uid]/@children</string>
            <key>query</key>
            <array>
                <array><string>currentPageIndex</string><string>%1</string></array>
                <array><string>pageSize</string><string>50</string></array>
            </array>
            <key>decoder</key><string>json</string>
        </dict>
        <key>updateTitle</key>
        <dict>
            <key>method</key><string>PUT</string>
            <key>path</key><string>/api/v1/id/%0[uid]</string>
            <key>body</key>
            <dict>
                <key>json</key>
                <dict>
                    <key>entity-type</key><string>document</string>
                    <key>changeToken</key><string>%0[changeToken]</string>
                    <key>properties</key>
                    <dict><key>dc:title</key><string>%1</string></dict>
                    <key>version</key><integer>2</integer>
                    <key>ratio</key><real>0.5</real>
                    <key>major</key><true/>
                    <key>code</key><string>007</string>
                    <key>word</key><string>true</string>
                </dict>
            </dict>
            <key>expectedStatuses</key><array><integer>200</integer><integer>201</integer></array>
            <key>isIdempotent</key><true/>
        </dict>
    </dict>
    </plist>
    """

@Suite("RequestTemplateCatalog")
struct RequestTemplateCatalogTests {
    @Test("the Nuxeo example set loads from JSON and builds its requests")
    func nuxeoExample() throws {
        let catalog = try RequestTemplateCatalog(json: Data(nuxeoExampleTemplates.utf8))
        #expect(catalog.names == ["automation", "children", "deleteDocument", "documentByPath"])

        let byPath = try catalog.template(named: "documentByPath")
            .makeRequest(baseURL: base, arguments: ["path": "/default-domain/workspaces/Q&A +1", "schemas": "dublincore,file"])
        #expect(byPath.method == .GET)
        #expect(byPath.url.absoluteString == "https://demo.example.com/nuxeo/api/v1/path/default-domain/workspaces/Q%26A%20%2B1")
        #expect(byPath.headers.first(name: "properties") == "dublincore,file")
        #expect(byPath.headers["X-NXRepository"].isEmpty)

        let children = try catalog.template(named: "children").makeRequest(baseURL: base, arguments: ["uid": "f00d", "page": 0, "sortBy": "dc:title"])
        #expect(children.url.absoluteString == "https://demo.example.com/nuxeo/api/v1/id/f00d/@children?currentPageIndex=0&sortBy=dc%3Atitle")

        let automation = try catalog.template(named: "automation").makeRequest(
            baseURL: base, arguments: ["operation": "Document.Move", "input": "doc:f00d", "params": ["target": "/ws/a \"b\"", "name": "x"]])
        #expect(automation.method == .POST)
        #expect(automation.deadline == .seconds(60))
        #expect(automation.url.absoluteString == "https://demo.example.com/nuxeo/api/v1/automation/Document.Move")
        #expect(automation.headers.first(name: "content-type") == "application/json+nxrequest")
        let sent = try JSONValue(json: Data((bodyText(automation) ?? "").utf8))
        #expect(sent == ["input": "doc:f00d", "params": ["target": "/ws/a \"b\"", "name": "x"], "context": [:]])

        let delete = try catalog.template(named: "deleteDocument")
        #expect(delete.expectedStatuses == [204])
        #expect(delete.decoder == "none")
        #expect(catalog["nope"] == nil)
        let error = #expect(throws: ProviderError.self) { try catalog.template(named: "nope") }
        #expect(error?.code == .invalidArgument)
    }

    @Test("a Nemo Connect–style property list loads, with %0[property] placeholders and typed JSON members")
    func propertyList() throws {
        let catalog = try RequestTemplateCatalog(propertyList: Data(nemoPlist.utf8))
        #expect(catalog.names == ["getChildren", "updateTitle"])
        let document: JSONValue = ["uid": "d0c", "changeToken": "1-0"]

        let children = try catalog.template(named: "getChildren").makeRequest(baseURL: base, arguments: [document, 3])
        #expect(children.url.absoluteString == "https://demo.example.com/nuxeo/api/v1/id/d0c/@children?currentPageIndex=3&pageSize=50")

        let update = try catalog.template(named: "updateTitle")
        #expect(update.expectedStatuses == [200, 201])
        #expect(update.decoder == "json", "decoder defaults to json")
        let request = try update.makeRequest(baseURL: base, arguments: [document, "New \"title\""])
        #expect(request.isIdempotent)
        let sent = try JSONValue(json: Data((bodyText(request) ?? "").utf8))
        #expect(
            sent == [
                "entity-type": "document", "changeToken": "1-0", "properties": ["dc:title": "New \"title\""], "version": 2,
                "ratio": 0.5, "major": true, "code": "007", "word": "true",
            ])

        #expect(try RequestTemplateCatalog(data: Data(nemoPlist.utf8)) == catalog, "detected as a property list")
    }

    @Test("a catalog round-trips through JSON and binary property lists")
    func roundTrip() throws {
        let catalog = try RequestTemplateCatalog(json: Data(nuxeoExampleTemplates.utf8))
        let json = try JSONEncoder().encode(catalog)
        #expect(try RequestTemplateCatalog(json: json) == catalog)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let binary = try encoder.encode(catalog)
        #expect(try RequestTemplateCatalog(data: binary) == catalog)
    }

    @Test("an array of templates loads in order, and files load by extension")
    func arrayAndFiles() throws {
        let text = #"[{"name": "b", "path": "/b"}, {"name": "a", "path": "/a", "method": "HEAD"}]"#
        let catalog = try RequestTemplateCatalog(json: Data(text.utf8))
        #expect(catalog.names == ["b", "a"])
        #expect(catalog["a"]?.method == "HEAD")
        #expect(catalog["b"]?.method == "GET")

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(text.utf8).write(to: directory.file("endpoints.json"))
        try Data(nemoPlist.utf8).write(to: directory.file("endpoints.plist"))
        try Data(nemoPlist.utf8).write(to: directory.file("endpoints.templates"))
        #expect(try RequestTemplateCatalog(contentsOf: directory.file("endpoints.json")) == catalog)
        #expect(try RequestTemplateCatalog(contentsOf: directory.file("endpoints.plist")).names == ["getChildren", "updateTitle"])
        #expect(try RequestTemplateCatalog(contentsOf: directory.file("endpoints.templates")).names == ["getChildren", "updateTitle"])
        let missing = #expect(throws: ProviderError.self) { try RequestTemplateCatalog(contentsOf: directory.file("nope.json")) }
        #expect(missing?.code == .notFound)
    }

    @Test("a catalog loads as a bundle resource")
    func bundleResource() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(nuxeoExampleTemplates.utf8).write(to: directory.file("nuxeo.json"))
        try Data(nemoPlist.utf8).write(to: directory.file("nemo.plist"))
        let bundle = try #require(Bundle(url: directory.url))
        #expect(try RequestTemplateCatalog(resource: "nuxeo", in: bundle).names.count == 4)
        #expect(try RequestTemplateCatalog(resource: "nemo", in: bundle).names == ["getChildren", "updateTitle"])
        let missing = #expect(throws: ProviderError.self) { try RequestTemplateCatalog(resource: "absent", in: bundle) }
        #expect(missing?.code == .notFound)
    }

    @Test("malformed catalogs are invalidArgument")
    func malformed() {
        let cases = [
            "not json",
            #"[{"name": "a"}]"#,
            #"[{"name": "a", "path": "/a"}, {"name": "a", "path": "/b"}]"#,
            #"{"a": {"path": "/{unclosed"}}"#,
            #"{"a": {"path": "/", "expectedStatuses": [42]}}"#,
            #"{"a": {"path": "/", "body": {"json": {"k": "%x"}}}}"#,
            #"{"a": {"path": "/", "headers": {"bad header": "x"}}}"#,
        ]
        for text in cases {
            let error = #expect(throws: ProviderError.self, "\(text)") { try RequestTemplateCatalog(json: Data(text.utf8)) }
            #expect(error?.code == .invalidArgument, "\(text)")
        }
        let plistError = #expect(throws: ProviderError.self) { try RequestTemplateCatalog(propertyList: Data("<plist>".utf8)) }
        #expect(plistError?.code == .invalidArgument)
    }

    @Test("JSONValue decodes JSON types faithfully")
    func templateValueJSON() throws {
        let value = try JSONValue(json: Data(#"{"s": "1", "i": 1, "d": 1.5, "b": true, "n": null, "a": [false, 0]}"#.utf8))
        #expect(value == ["s": "1", "i": 1, "d": 1.5, "b": true, "n": .null, "a": [false, 0]])
        #expect(value["i"]?.intValue == 1)
        #expect(value["s"]?.stringValue == "1")
        #expect(value["a"]?[0]?.boolValue == false)
        #expect(value["d"]?.doubleValue == 1.5)
    }
}
