import Foundation
import NIOCore
import NIOHTTP1
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("http://127.0.0.1:8080/nuxeo")

private struct Document: Decodable, Sendable, Equatable {
    var uid: String
    var title: String
}

private func templates(
    _ transport: ScriptedTransport, decoders: TemplateDecoderRegistry = TemplateDecoderRegistry(), maxResponseBytes: Int = 1 << 20
) throws -> RequestTemplateExecutor {
    let executor = RequestExecutor(transport: transport, retry: fastRetry, logger: quietLogger)
    return RequestTemplateExecutor(
        executor: executor, baseURL: base, decoders: decoders,
        catalog: try RequestTemplateCatalog(json: Data(nuxeoExampleTemplates.utf8)), maxResponseBytes: maxResponseBytes)
}

private let documentJSON = #"{"entity-type": "document", "uid": "f00d", "title": "Report", "extra": [1, 2]}"#

@Suite("RequestTemplateExecutor")
struct RequestTemplateExecutorTests {
    @Test("an expected status is decoded by the json decoder, through the executor's headers and auth")
    func jsonDecoder() async throws {
        let transport = ScriptedTransport([.status(200, [("Content-Type", "application/json")], body: documentJSON)])
        let value = try await templates(transport).execute("children", arguments: ["uid": "f00d", "page": 1], as: JSONValue.self)
        #expect(value["uid"] == "f00d")
        #expect(value["extra"] == [1, 2])
        let sent = try #require(transport.requests.first)
        #expect(sent.method == "GET")
        #expect(sent.url.absoluteString == "http://127.0.0.1:8080/nuxeo/api/v1/id/f00d/@children?currentPageIndex=1")
        #expect(sent.header("Accept") == "application/json")
        #expect(sent.header("User-Agent") == "Strata/1.0", "the executor's default headers apply")
    }

    @Test("a registered typed decoder makes the typed value; the wrong type is invalidResponse")
    func typedDecode() async throws {
        var decoders = TemplateDecoderRegistry()
        decoders.register("document", as: Document.self)
        let transport = ScriptedTransport([.status(200, body: documentJSON), .status(200, body: documentJSON)])
        let executor = try templates(transport, decoders: decoders)
        let document = try await executor.execute("documentByPath", arguments: ["path": "/ws/r"], as: Document.self)
        #expect(document == Document(uid: "f00d", title: "Report"))
        let error = await #expect(throws: ProviderError.self) {
            try await executor.execute("documentByPath", arguments: ["path": "/ws/r"], as: String.self)
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.request == "GET /nuxeo/api/v1/path/ws/r")
    }

    @Test("a body the decoder cannot read is invalidResponse")
    func undecodable() async throws {
        var decoders = TemplateDecoderRegistry()
        decoders.register("document", as: Document.self)
        decoders.register("failing", TemplateDecoder { _, _ in throw CocoaError(.fileReadCorruptFile) })
        let transport = ScriptedTransport([.status(200, body: "<html>"), .status(200, body: #"{"uid": 1}"#), .status(200, body: "{}")])
        let executor = try templates(transport, decoders: decoders)
        let children = await #expect(throws: ProviderError.self) {
            try await executor.execute("children", arguments: ["uid": "u", "page": 0], as: JSONValue.self)
        }
        #expect(children?.code == .invalidResponse)
        let typed = await #expect(throws: ProviderError.self) {
            try await executor.execute("documentByPath", arguments: ["path": "/"], as: Document.self)
        }
        #expect(typed?.code == .invalidResponse)
        var failing = try executor.catalog.template(named: "deleteDocument")
        failing.decoder = "failing"
        failing.expectedStatuses = [200]
        let custom = await #expect(throws: ProviderError.self) { try await executor.execute(failing, arguments: ["uid": "u"]) }
        #expect(custom?.code == .invalidResponse)
        #expect(custom?.request == "DELETE /nuxeo/api/v1/id/u")
    }

    @Test("an unexpected status is mapped, with the request and Retry-After")
    func unexpectedStatus() async throws {
        let transport = ScriptedTransport([
            .status(404, body: #"{"entity-type": "exception", "status": 404}"#), .status(409), .status(401),
            .status(429, [("Retry-After", "3600")]),
        ])
        let executor = try templates(transport)
        var codes: [ProviderError.Code] = []
        for _ in 0..<4 {
            do {
                _ = try await executor.execute("deleteDocument", arguments: ["uid": "gone"], as: Void.self)
            } catch let error as ProviderError {
                codes.append(error.code)
                #expect(error.request == "DELETE /nuxeo/api/v1/id/gone")
                if error.code == .rateLimited { #expect(error.retryAfter == .seconds(3600)) }
            }
        }
        #expect(codes == [.notFound, .conflict, .unauthorized, .rateLimited])
        #expect(try #require(transport.requests.first).method == "DELETE")
    }

    @Test("an error mapper refines an unexpected status from the error body")
    func errorMapper() async throws {
        let transport = ScriptedTransport([
            .status(409, body: #"{"entity-type": "exception", "message": "stale changeToken"}"#), .status(500, body: "<html>"),
        ])
        var executor = try templates(transport)
        executor.errorMapper = { head, body in
            guard let entity = try? JSONValue(json: Data(body.readableBytesView)), let message = entity["message"]?.stringValue else {
                return nil
            }
            return ProviderError(message.contains("changeToken") ? .conflict : .server, message)
        }
        let stale = await #expect(throws: ProviderError.self) {
            try await executor.execute("deleteDocument", arguments: ["uid": "u"], as: Void.self)
        }
        #expect(stale?.code == .conflict)
        #expect(stale?.message == "stale changeToken")
        #expect(stale?.httpStatus == 409)
        #expect(stale?.request == "DELETE /nuxeo/api/v1/id/u")
        let html = await #expect(throws: ProviderError.self) {
            try await executor.execute("deleteDocument", arguments: ["uid": "u"], as: Void.self)
        }
        #expect(html?.code == .server)
        #expect(html?.message == "unexpected HTTP status 500: <html>", "the mapper declined, so the status and the body decide")
    }

    @Test("none returns () and discards the body; raw returns the bytes; several expected statuses")
    func builtIns() async throws {
        let transport = ScriptedTransport([.status(204), .status(200, body: "raw bytes"), .status(204)])
        let executor = try templates(transport)
        try await executor.execute("deleteDocument", arguments: ["uid": "u"], as: Void.self)
        var raw = try executor.catalog.template(named: "children")
        raw.decoder = "raw"
        let bytes = try await executor.execute(raw, arguments: ["uid": "u", "page": 0], as: ByteBuffer.self)
        #expect(String(buffer: bytes) == "raw bytes")
        var automation = try executor.catalog.template(named: "automation")
        automation.decoder = "none"
        try await executor.execute(automation, arguments: ["operation": "Document.Delete", "params": [:]], as: Void.self)
        let sent = try #require(transport.requests.last)
        #expect(sent.method == "POST")
        #expect(sent.body.map { String(decoding: $0, as: UTF8.self) } == #"{"context":{},"params":{}}"#)
    }

    @Test("an unregistered decoder is invalidArgument and nothing is sent")
    func missingDecoder() async throws {
        let transport = ScriptedTransport([.status(200, body: documentJSON)])
        let error = await #expect(throws: ProviderError.self) {
            try await templates(transport).execute("documentByPath", arguments: ["path": "/x"], as: JSONValue.self)
        }
        #expect(error?.code == .invalidArgument)
        #expect(transport.count == 0)
    }

    @Test("bad arguments are invalidArgument and nothing is sent")
    func badArguments() async throws {
        let transport = ScriptedTransport([.status(200)])
        let error = await #expect(throws: ProviderError.self) {
            try await templates(transport).execute("children", arguments: ["page": 0], as: JSONValue.self)
        }
        #expect(error?.code == .invalidArgument)
        let unknown = await #expect(throws: ProviderError.self) {
            try await templates(transport).execute("unknown", as: JSONValue.self)
        }
        #expect(unknown?.code == .invalidArgument)
        #expect(transport.count == 0)
    }

    @Test("a response over the size limit is invalidResponse, with or without Content-Length")
    func tooBig() async throws {
        let big = String(repeating: "x", count: 300)
        let transport = ScriptedTransport([
            .respond(status: 200, pieces: [Array(big.utf8), Array(big.utf8)]),
            .status(200, [("Content-Length", "600")], body: big + big),
            .status(200, body: "[1]"),
        ])
        let executor = try templates(transport, maxResponseBytes: 500)
        for _ in 0..<2 {
            let error = await #expect(throws: ProviderError.self) {
                try await executor.execute("children", arguments: ["uid": "u", "page": 0], as: JSONValue.self)
            }
            #expect(error?.code == .invalidResponse)
            #expect(error?.httpStatus == 200)
        }
        #expect(try await executor.execute("children", arguments: ["uid": "u", "page": 0], as: JSONValue.self) == [1])
    }

    @Test("retries and redirects of the executor apply to templates")
    func executorBehaviour() async throws {
        let transport = ScriptedTransport([
            .status(503, [("Retry-After", "0")]),
            .status(307, [("Location", "/nuxeo/api/v1/id/moved/@children?currentPageIndex=0")]),
            .status(200, body: "[]"),
        ])
        let value = try await templates(transport).execute("children", arguments: ["uid": "u", "page": 0], as: JSONValue.self)
        #expect(value == [])
        #expect(transport.count == 3)
        #expect(transport.requests.last?.url.path == "/nuxeo/api/v1/id/moved/@children")
    }

    @Test("the RequestExecutor shorthand and response(for:) with the body unread")
    func shorthand() async throws {
        let transport = ScriptedTransport([.status(200, body: #"{"ok": true}"#), .status(200, [("ETag", "\"e1\"")], body: "blob")])
        let executor = RequestExecutor(transport: transport, retry: fastRetry, logger: quietLogger)
        let template = RequestTemplate(name: "ping", path: "/api/v1/ping/{who}")
        let value = try await executor.execute(template, arguments: ["who": "me"], baseURL: base, as: JSONValue.self)
        #expect(value == ["ok": true])
        let response = try await RequestTemplateExecutor(executor: executor, baseURL: base)
            .response(for: RequestTemplate(name: "blob", path: "/blob"))
        #expect(response.etag == "\"e1\"")
        #expect(String(buffer: try await response.body.collect(upTo: 100)) == "blob")
    }
}
