import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider
import HTTPProviderKit

/// An app's own entity type, registered like the seed SDK's `registerEntityClass`.
struct WorkflowTask: NuxeoEntityDecodable, Equatable {
    static let entityType = "task"
    let id: String
    let name: String
    let dueDate: Date?

    init(nuxeoJSON json: JSONValue) throws {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue else {
            throw ProviderError(.invalidResponse, "a task needs id and name")
        }
        self.id = id
        self.name = name
        self.dueDate = json["dueDate"]?.dateValue
    }
}

@Suite("Nuxeo entity registry") struct NuxeoEntityRegistryTests {
    static let taskJSON = Data(#"{"entity-type":"task","id":"t1","name":"Review","dueDate":"2024-01-01T10:00:00.00Z"}"#.utf8)

    @Test("the standard registry knows the built-in entity types")
    func builtIns() {
        #expect(NuxeoEntityRegistry.standard.registeredEntityTypes
            == ["document", "documents", "exception", "login", "user", "logEntry", "logEntries", "acls"])
        #expect(NuxeoEntityRegistry.empty.registeredEntityTypes.isEmpty)
    }

    @Test("an unregistered type is unknown; once registered it decodes as custom")
    func customRegistration() throws {
        guard case .unknown(let type, _) = try NuxeoEntityRegistry.standard.decode(Self.taskJSON) else {
            Issue.record("an unregistered task should be unknown")
            return
        }
        #expect(type == "task")

        var registry = NuxeoEntityRegistry.standard
        registry.register(WorkflowTask.self)
        #expect(registry.registeredEntityTypes.contains("task"))
        let entity = try registry.decode(Self.taskJSON)
        #expect(entity.entityType == "task")
        let task = try #require(entity.custom(as: WorkflowTask.self))
        #expect(task.id == "t1")
        #expect(task.name == "Review")
        #expect(task.dueDate == Date(timeIntervalSince1970: 1_704_103_200))
        #expect(try registry.decode(WorkflowTask.self, from: Self.taskJSON) == task)
        // the standard registry is a value: unaffected
        #expect(!NuxeoEntityRegistry.standard.registeredEntityTypes.contains("task"))
        // a custom type's own validation surfaces as invalidResponse
        #expect(throws: ProviderError.self) { try registry.decode(Data(#"{"entity-type":"task","id":"t2"}"#.utf8)) }
    }

    @Test("a registered type can replace a built-in, and closures register too")
    func overrides() throws {
        struct SlimDocument: NuxeoEntityDecodable {
            static let entityType = "document"
            let uid: String
            init(nuxeoJSON json: JSONValue) throws { uid = json["uid"]?.stringValue ?? "?" }
        }
        let registry = NuxeoEntityRegistry.standard.registering(SlimDocument.self)
        let entity = try registry.decode(Data(#"{"entity-type":"document","uid":"u"}"#.utf8))
        #expect(entity.document == nil)
        #expect(entity.custom(as: SlimDocument.self)?.uid == "u")

        var withClosure = NuxeoEntityRegistry.empty
        withClosure.register(entityType: "ping") { json in .unknown(entityType: "ping", json: json["value"] ?? .null) }
        guard case .unknown(_, let value) = try withClosure.decode(Data(#"{"entity-type":"ping","value":3}"#.utf8)) else {
            Issue.record("closure decoder not used")
            return
        }
        #expect(value == .integer(3))
        // the empty registry does not know documents
        #expect(try NuxeoEntityRegistry.empty.decode(Data(#"{"entity-type":"document","uid":"u"}"#.utf8)).document == nil)
    }

    @Test("the @acl adapter's acls entity (key ace) and the enricher's form (key aces) read alike")
    func aclForms() throws {
        // Built from spec §7.3 (no recording of @acl exists in the fixtures).
        let adapter = #"{"entity-type":"acls","acl":[{"name":"local","ace":[{"id":"jdoe:ReadWrite:true:Administrator:1735689600000:1738368000000","username":"jdoe","permission":"ReadWrite","granted":"true","creator":"Administrator","begin":"2025-01-01T00:00:00.000Z","end":1738368000000,"status":"effective"}]}]}"#
        guard case .acls(let list) = try NuxeoEntityRegistry.standard.decode(Data(adapter.utf8)) else {
            Issue.record("acls entity not decoded")
            return
        }
        let ace = try #require(list.acls.first?.aces.first)
        #expect(list.acls.first?.name == "local")
        #expect(ace.username == "jdoe")
        #expect(ace.permission == "ReadWrite")
        #expect(ace.granted)
        #expect(ace.creator == "Administrator")
        #expect(ace.begin == Date(timeIntervalSince1970: 1_735_689_600))
        #expect(ace.end == Date(timeIntervalSince1970: 1_738_368_000))
        #expect(throws: ProviderError.self) {
            try NuxeoEntityRegistry.standard.decode(Data(#"{"entity-type":"acls","acl":[{"ace":[]}]}"#.utf8))
        }
    }

    @Test("concurrent decoding with one shared registry")
    func concurrentUse() async throws {
        let registry = NuxeoEntityRegistry.standard.registering(WorkflowTask.self)
        let data = try Fixtures.data("php-client/document-list.json")
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { try registry.decode(NuxeoDocumentList.self, from: data).entries.count }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 5, count: 16))
    }
}

@Suite("Nuxeo document encoding") struct NuxeoDocumentDraftTests {
    @Test("a create body has only entity-type, name, type and properties")
    func createBody() throws {
        let draft = NuxeoDocumentDraft.create(
            name: "report.pdf", type: "File",
            properties: ["dc:title": .string("report.pdf"), "file:content": .object(["upload-batch": .string("b1"), "upload-fileId": .string("0")])])
        let text = String(decoding: try draft.encoded(), as: UTF8.self)
        #expect(text == #"{"entity-type":"document","name":"report.pdf","properties":{"dc:title":"report.pdf","file:content":{"upload-batch":"b1","upload-fileId":"0"}},"type":"File"}"#)
    }

    @Test("an update of a recorded document carries uid and changeToken, and round-trips")
    func updateRoundTrip() throws {
        let document = try NuxeoEntityRegistry.standard.decode(
            NuxeoDocument.self, from: try Fixtures.data("nuxeo-server/test-expected-document1.json"))
        let properties: [String: JSONValue] = [
            "dc:title": .string("It's \"new\"\n📄"), "dc:description": .null, "uid:minor_version": .integer(2),
            "custom:complex": .object(["height": .double(1.456), "tags": .array([.string("a"), .bool(true)])]),
        ]
        let draft = NuxeoDocumentDraft.update(of: document, properties: properties)
        let data = try draft.encoded()
        let json = try NuxeoJSON.parse(data)
        #expect(Set(json.objectValue?.keys.map { $0 } ?? []) == ["entity-type", "uid", "changeToken", "properties"])
        #expect(json["uid"] == .string("the-doc-id"))
        #expect(json["changeToken"] == .string("1-0"))
        #expect(json["properties"]?["dc:description"] == .null)  // null clears, and is sent
        let decoded = try NuxeoDocumentDraft(nuxeoJSON: json)
        #expect(decoded == draft)
        #expect(decoded.properties == properties)
    }

    @Test("a fetched document re-encoded as a full draft keeps every property value")
    func fullDocumentRoundTrip() throws {
        let document = try NuxeoEntityRegistry.standard.decode(
            NuxeoDocument.self, from: try Fixtures.data("php-client/document.json"))
        let draft = NuxeoDocumentDraft(
            name: "MyFile", type: document.type, uid: document.uid, changeToken: document.changeToken,
            properties: document.properties)
        let back = try NuxeoDocumentDraft(nuxeoJSON: NuxeoJSON.parse(try draft.encoded()))
        #expect(back.properties == document.properties)
        #expect(back.type == "Note")
        #expect(back.changeToken == "1444731706120")
    }

    @Test("a body of another entity type is refused")
    func wrongBody() {
        #expect(throws: ProviderError.self) { try NuxeoDocumentDraft(nuxeoJSON: .object(["entity-type": .string("user")])) }
        #expect(throws: ProviderError.self) { try NuxeoDocumentDraft(nuxeoJSON: .array([])) }
    }
}
