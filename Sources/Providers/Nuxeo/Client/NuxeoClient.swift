import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderAPI
import HTTPProviderKit

/// Sends the Nuxeo REST and Automation calls the adapter needs, each described by a request
/// template, and decodes the answers into entities: ``automation(_:)`` runs any Automation
/// operation and ``pageProvider(_:queryParams:namedParameters:page:pageSize:sortBy:sortOrder:enrichers:)``
/// any page provider, for calls beyond the contract.
///
/// Every request carries `Accept: application/json`, `X-No-Basic-Header: true` (so a 401 never
/// starts a browser-style challenge), the repository and the `properties` header from
/// the provider's configuration; an error answer becomes a `ProviderError`.
public struct NuxeoClient: Sendable {
    /// The server's base URL with its context path, such as `https://host/nuxeo`.
    package let baseURL: URL
    /// Headers sent with every request.
    package var defaults: NuxeoRequestDefaults
    /// Sends the requests (authentication, retries, redirects, logging).
    package let executor: RequestExecutor
    /// Runs the templates.
    package let templates: RequestTemplateExecutor
    /// The entity types the client decodes.
    package let entities: NuxeoEntityRegistry

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: the server URL with its context path.
    ///   - executor: sends the requests; its default headers are extended with Nuxeo's.
    ///   - defaults: schemas, enrichers and repository for every request.
    ///   - catalog: the endpoint templates; ``NuxeoEndpoints/standard()`` by default.
    ///   - entities: the entity registry, with an app's own types registered.
    package init(
        baseURL: URL, executor: RequestExecutor, defaults: NuxeoRequestDefaults = NuxeoRequestDefaults(),
        catalog: RequestTemplateCatalog? = nil, entities: NuxeoEntityRegistry = .standard
    ) throws {
        var executor = executor
        executor.defaultHeaders.replaceOrAdd(name: "Accept", value: "application/json")
        executor.defaultHeaders.replaceOrAdd(name: "X-No-Basic-Header", value: "true")
        executor.defaultHeaders.replaceOrAdd(name: "X-NXRepository", value: defaults.repository)
        executor.defaultHeaders.replaceOrAdd(name: "X-Application-Name", value: "Strata")
        executor.defaultHeaders.replaceOrAdd(name: "properties", value: defaults.propertiesHeader())
        self.baseURL = baseURL
        self.defaults = defaults
        self.executor = executor
        self.entities = entities
        var decoders = TemplateDecoderRegistry()
        decoders.register("document", Self.entityDecoder(NuxeoDocument.self, entities))
        decoders.register("documents", Self.entityDecoder(NuxeoDocumentList.self, entities))
        decoders.register("user", Self.entityDecoder(NuxeoUser.self, entities))
        self.templates = RequestTemplateExecutor(
            executor: executor, baseURL: baseURL, decoders: decoders, catalog: try catalog ?? NuxeoEndpoints.standard(),
            errorMapper: { head, body in
                NuxeoErrorMapper.error(
                    status: head.status, body: Data(body.readableBytesView), request: head.request,
                    retryAfter: TransportResponse(status: head.status, headers: head.headers, url: head.url).retryAfter)
            })
    }

    private static func entityDecoder<T: NuxeoEntityDecodable>(_ type: T.Type, _ registry: NuxeoEntityRegistry) -> TemplateDecoder {
        TemplateDecoder { head, body in
            try decodeEntity(T.self, registry, body: body, request: head.request, status: head.status)
        }
    }

    /// Decodes `body` as a `T` with `registry`; an error names `request` and `status` unless it already names its own.
    private static func decodeEntity<T: NuxeoEntityDecodable>(
        _ type: T.Type, _ registry: NuxeoEntityRegistry, body: ByteBuffer, request: @autoclosure () -> String, status: Int
    ) throws -> T {
        do {
            return try registry.decode(T.self, from: body)
        } catch var error as ProviderError {
            if error.request == nil { error.request = request() }
            if error.httpStatus == nil { error.httpStatus = status }
            throw error
        }
    }

    private func common(_ enrichers: [String], _ arguments: [String: JSONValue]) -> TemplateArguments {
        var named = arguments
        named["properties"] = .string(defaults.propertiesHeader())
        if let value = defaults.enrichersHeader(adding: enrichers) { named["enrichers"] = .string(value) }
        return TemplateArguments(named: named)
    }

    // MARK: Documents

    /// The document at an absolute repository path (server names, such as `/default-domain/workspaces`).
    package func document(path: String, enrichers: [String] = []) async throws -> NuxeoDocument {
        let trimmed = path.hasPrefix("/") ? path : "/" + path
        return try await templates.execute(
            "documentByPath", arguments: common(enrichers, ["path": .string(trimmed)]), as: NuxeoDocument.self)
    }

    /// The document with `uid`.
    package func document(uid: String, enrichers: [String] = []) async throws -> NuxeoDocument {
        try await templates.execute("documentById", arguments: common(enrichers, ["uid": .string(uid)]), as: NuxeoDocument.self)
    }

    /// One page of the children of the folder `uid` (`@children`: not trashed, not hidden).
    package func children(of uid: String, page: Int, pageSize: Int, enrichers: [String] = []) async throws -> NuxeoDocumentList {
        try await templates.execute(
            "children", arguments: childrenArguments(uid, page, pageSize, enrichers), as: NuxeoDocumentList.self)
    }

    /// The arguments of the `children` template.
    private func childrenArguments(_ uid: String, _ page: Int, _ pageSize: Int, _ enrichers: [String]) -> TemplateArguments {
        common(enrichers, ["uid": .string(uid), "page": .integer(Int64(page)), "pageSize": .integer(Int64(pageSize))])
    }

    /// One page of the children of the folder `uid`, as ``children(of:page:pageSize:enrichers:)``
    /// sends it, with its paging read before its entries are decoded (``NuxeoDocumentListPage``):
    /// a listing asks for the next page while this one is decoded.
    package func childrenPage(of uid: String, page: Int, pageSize: Int, enrichers: [String] = []) async throws -> NuxeoDocumentListPage {
        let arguments = childrenArguments(uid, page, pageSize, enrichers)
        var template = try templates.catalog.template(named: "children")
        // A catalog whose `children` decodes into something else than the documents entity is decoded as it says.
        guard template.decoder == "documents" else {
            let list = try await templates.execute(template, arguments: arguments, as: NuxeoDocumentList.self)
            return try NuxeoDocumentListPage(body: ByteBuffer(), decode: { _ in list })
        }
        template.decoder = "raw"
        let body = try await templates.execute(template, arguments: arguments, as: ByteBuffer.self)
        let (entities, templates) = (self.entities, self.templates)
        return try NuxeoDocumentListPage(body: body) { [template] body in
            try Self.decodeEntity(
                NuxeoDocumentList.self, entities, body: body,
                request: (try? templates.makeRequest(template, arguments: arguments).summary) ?? "GET @children", status: 200)
        }
    }

    /// Creates a document in the folder `parent`.
    package func create(_ draft: NuxeoDocumentDraft, in parent: String, enrichers: [String] = []) async throws -> NuxeoDocument {
        try await templates.execute(
            "createDocument", arguments: common(enrichers, ["parent": .string(parent), "document": draft.jsonValue]),
            as: NuxeoDocument.self)
    }

    /// Updates the document `uid` with the draft's properties; a draft with a change token makes a stale write a `conflict`.
    package func update(_ draft: NuxeoDocumentDraft, uid: String, enrichers: [String] = []) async throws -> NuxeoDocument {
        try await templates.execute(
            "updateDocument", arguments: common(enrichers, ["uid": .string(uid), "document": draft.jsonValue]),
            as: NuxeoDocument.self)
    }

    /// Deletes the document `uid` and everything below it, permanently.
    package func delete(uid: String) async throws {
        _ = try await templates.execute("deleteDocument", arguments: ["uid": .string(uid)], as: Void.self)
    }

    /// One page of the documents an NXQL statement selects.
    package func search(
        nxql: String, page: Int, pageSize: Int, sortBy: String? = nil, sortOrder: String? = nil, enrichers: [String] = []
    ) async throws -> NuxeoDocumentList {
        var arguments: [String: JSONValue] = [
            "query": .string(nxql), "page": .integer(Int64(page)), "pageSize": .integer(Int64(pageSize)),
        ]
        if let sortBy { arguments["sortBy"] = .string(sortBy) }
        if let sortOrder { arguments["sortOrder"] = .string(sortOrder) }
        return try await templates.execute("search", arguments: common(enrichers, arguments), as: NuxeoDocumentList.self)
    }

    /// One page of a server-defined page provider (`tree_children`, `default_search`, …):
    /// `queryParams` fill its `?` placeholders in order, `namedParameters` its named ones.
    public func pageProvider(
        _ name: String, queryParams: [String] = [], namedParameters: [String: String] = [:], page: Int, pageSize: Int,
        sortBy: String? = nil, sortOrder: String? = nil, enrichers: [String] = []
    ) async throws -> NuxeoDocumentList {
        var arguments: [String: JSONValue] = [
            "provider": .string(name), "page": .integer(Int64(page)), "pageSize": .integer(Int64(pageSize)),
        ]
        if !queryParams.isEmpty { arguments["queryParams"] = .array(queryParams.map(JSONValue.string)) }
        if let sortBy { arguments["sortBy"] = .string(sortBy) }
        if let sortOrder { arguments["sortOrder"] = .string(sortOrder) }
        var request = try templates.makeRequest(
            templates.catalog.template(named: "pageProvider"), arguments: common(enrichers, arguments))
        if !namedParameters.isEmpty, var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            let named = namedParameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
            let extra = NuxeoURLEncoding.queryString(named)
            components.percentEncodedQuery = [components.percentEncodedQuery, extra].compactMap { $0 }.joined(separator: "&")
            request.url = components.url ?? request.url
        }
        let response = try await executor.execute(request)
        guard response.status == 200 else { throw await error(for: response, request: request) }
        let body = try await response.body.collect(upTo: templates.maxResponseBytes)
        return try entities.decode(NuxeoDocumentList.self, from: Data(body.readableBytesView))
    }

    /// The signed-in user.
    package func currentUser() async throws -> NuxeoUser {
        try await templates.execute("me", as: NuxeoUser.self)
    }

    // MARK: Automation

    /// Runs an Automation operation and decodes its answer.
    public func automation(_ request: NuxeoAutomationRequest) async throws -> NuxeoAutomationResult {
        var arguments: [String: JSONValue] = [
            "operation": .string(request.operation), "params": .object(request.params), "context": .object(request.context),
        ]
        if let input = request.input { arguments["input"] = input.jsonValue }
        var http = try templates.makeRequest(
            templates.catalog.template(named: "automation"), arguments: common(request.enrichers, arguments))
        for (name, value) in request.headers { http.headers.replaceOrAdd(name: name, value: value) }
        return try await send(http, expecting: [200, 201, 204])
    }

    /// Runs an operation on the file `index` of an upload batch (`FileManager.Import`, `Blob.AttachOnDocument`).
    package func execute(
        _ operation: String, onBatch batch: String, index: Int = 0, params: [String: JSONValue] = [:],
        context: [String: JSONValue] = [:], headers: [String: String] = [:]
    ) async throws -> NuxeoAutomationResult {
        var http = try templates.makeRequest(
            templates.catalog.template(named: "batchExecute"),
            arguments: common([], [
                "batch": .string(batch), "index": .integer(Int64(index)), "operation": .string(operation),
                "params": .object(params), "context": .object(context),
            ]))
        for (name, value) in headers { http.headers.replaceOrAdd(name: name, value: value) }
        return try await send(http, expecting: [200, 201, 204])
    }

    /// Sends a request and reads its answer as an Automation result.
    func send(_ request: TransportRequest, expecting statuses: Set<Int>) async throws -> NuxeoAutomationResult {
        let response = try await executor.execute(request)
        guard statuses.contains(response.status) else { throw await error(for: response, request: request) }
        if response.status == 204 {
            await response.body.discard()
            return .void
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: templates.maxResponseBytes)
        } catch {
            throw ProviderError.wrap(error, request: request.summary)
        }
        let data = Data(body.readableBytesView)
        let type = response.headers.first(name: "content-type")?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else { return .blob(data, mimeType: type.isEmpty ? nil : type) }
        do {
            let json = try NuxeoJSON.parse(data)
            switch try entities.decode(json: json) {
            case .document(let document): return .document(document)
            case .documents(let list): return .documents(list)
            case .exception(let exception):
                throw NuxeoErrorMapper.error(status: exception.status ?? response.status, exception: exception, request: request.summary)
            // Any other entity (a login, a user, an app's own type) is checked by the registry and
            // handed over as its JSON: the entity types are the client's wire model, not API.
            case .unknown, .login, .user, .logEntry, .logEntries, .acls, .custom: return .json(json)
            }
        } catch var failure as ProviderError {
            if failure.request == nil { failure.request = request.summary }
            throw failure
        }
    }

    /// The error for a failed answer, read from its `exception` entity where it has one.
    func error(for response: TransportResponse, request: TransportRequest) async -> ProviderError {
        let body = (try? await response.body.collect(upTo: 64 << 10)) ?? ByteBuffer()
        return NuxeoErrorMapper.error(
            status: response.status, body: Data(body.readableBytesView), request: request.summary,
            retryAfter: response.retryAfter)
    }

    // MARK: Batch upload

    /// Opens an upload batch and returns its id.
    package func createBatch() async throws -> String {
        let json = try await templates.execute("batchCreate", as: JSONValue.self)
        guard let id = json["batchId"]?.stringValue, !id.isEmpty else {
            throw ProviderError(.invalidResponse, "the batch answer has no batchId")
        }
        return id
    }

    /// The request that sends a file, or one chunk of it, to a batch; its body is the caller's.
    package func batchUploadRequest(
        batch: String, index: Int = 0, fileName: String, mimeType: String, fileSize: Int64,
        chunk: (index: Int, count: Int)? = nil
    ) throws -> TransportRequest {
        var arguments: [String: JSONValue] = [
            "batch": .string(batch), "index": .integer(Int64(index)),
            "fileName": .string(PercentEncoding.formEncode(fileName)), "fileType": .string(mimeType),
            "fileSize": .integer(fileSize),
        ]
        if let chunk {
            arguments["uploadType"] = "chunked"
            arguments["chunkIndex"] = .integer(Int64(chunk.index))
            arguments["chunkCount"] = .integer(Int64(chunk.count))
        }
        return try templates.makeRequest(templates.catalog.template(named: "batchUpload"), arguments: TemplateArguments(named: arguments))
    }

    /// What the server holds of the file `index` of a batch: `complete`, and the chunk indexes it has.
    package func batchFileStatus(batch: String, index: Int = 0) async throws -> (complete: Bool, chunks: Set<Int>) {
        let state = try await batchFileState(batch: batch, index: index)
        return (state.complete, state.chunks)
    }

    /// What the server holds of the file `index` of a batch (`GET /upload/{batch}/{index}`):
    /// 202 while chunks are missing, 200 once complete, with the file's name, declared size,
    /// chunk count and the chunk indexes received.
    ///
    /// - Throws: `ProviderError.Code.notFound` for a batch or file the server does not hold
    ///   (never made, used, or expired).
    package func batchFileState(batch: String, index: Int = 0) async throws -> NuxeoBatchFileState {
        let request = try templates.makeRequest(
            templates.catalog.template(named: "batchFileStatus"),
            arguments: ["batch": .string(batch), "index": .integer(Int64(index))])
        let response = try await executor.execute(request)
        guard response.status == 200 || response.status == 202 else { throw await error(for: response, request: request) }
        let body = try await response.body.collect(upTo: 1 << 20)
        let json = try NuxeoJSON.parse(Data(body.readableBytesView))
        let chunks = Set((json["uploadedChunkIds"]?.arrayValue ?? []).compactMap(\.intValue))
        return NuxeoBatchFileState(
            complete: response.status == 200, chunks: chunks, name: json["name"]?.stringValue,
            size: json["size"]?.int64Value, chunkCount: json["chunkCount"]?.intValue)
    }

    /// Drops a batch and what it holds.
    package func deleteBatch(_ batch: String) async throws {
        _ = try await templates.execute("batchDelete", arguments: ["batch": .string(batch)], as: Void.self)
    }

    // MARK: Blobs and tokens

    /// The request that downloads the blob at `xpath` of the document `uid`.
    package func blobRequest(uid: String, xpath: String = "file:content") throws -> TransportRequest {
        try templates.makeRequest(
            templates.catalog.template(named: "blob"), arguments: ["uid": .string(uid), "xpath": .string(xpath)])
    }
}
