import Foundation
@testable import NuxeoTestServer

/// Small helpers creating documents and uploads through the wire protocol.
extension TestClient {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Creates a document under `parent` (an API path) and returns its JSON.
    @discardableResult
    func create(
        _ type: String, name: String, title: String? = nil, under parent: String = workspace,
        extra: String = "", headers: [(String, String)] = [("properties", "*")]
    ) async throws -> NXJSON {
        let titleJSON = title.map { ",\"dc:title\":\(NXJSON.string($0).serialized)" } ?? ""
        let body = "{\"entity-type\":\"document\",\"type\":\"\(type)\",\"name\":\(NXJSON.string(name).serialized),"
            + "\"properties\":{\"dc:description\":null\(titleJSON)\(extra)}}"
        let response = try await sendJSON("POST", parent, body, headers: headers)
        guard response.status == 201 else { throw Failure(description: "create \(name): \(response.status) \(response.text)") }
        return try response.json()
    }

    /// Creates a batch and uploads `data` as file 0; returns the batch id.
    func upload(_ data: Data, name: String, mime: String = "text/plain") async throws -> String {
        let batch = try await send("POST", "/api/v1/upload/").json()["batchId"]?.stringValue ?? ""
        let response = try await send("POST", "/api/v1/upload/\(batch)/0", headers: [
            ("X-File-Name", FormDecoding.encodeComponent(name)), ("X-File-Type", mime),
            ("X-File-Size", String(data.count)), ("Content-Type", "application/octet-stream"),
        ], body: data)
        guard response.status == 201 else { throw Failure(description: "upload: \(response.status)") }
        return batch
    }

    /// Creates a File with content; returns its JSON (properties `*`).
    @discardableResult
    func createFile(name: String, content: Data, mime: String = "text/plain", under parent: String = workspace) async throws -> NXJSON {
        let batch = try await upload(content, name: name, mime: mime)
        return try await create("File", name: name, title: name, under: parent,
                                extra: ",\"file:content\":{\"upload-batch\":\"\(batch)\",\"upload-fileId\":\"0\"}")
    }
}
