import Foundation
import Hummingbird

extension NuxeoRouter {
    /// `POST` on a folder: create a child (201).
    func create(_ req: ServerRequest, parent: String) async throws -> Response {
        let body = try await req.jsonBody()
        guard let type = body["type"]?.stringValue, let name = body["name"]?.stringValue, !type.isEmpty else {
            throw NuxeoError.badRequest("type or name property is missing")
        }
        guard DocumentType.creatable.contains(type), let docType = DocumentType.named(type) else {
            throw NuxeoError.badRequest("Type: \(type) does not exist")
        }
        let noDrop = req.header("X-Batch-No-Drop")?.lowercased() == "true"
        let uid: String = try core.withState { state in
            guard let parentDoc = state.repository.document(parent), parentDoc.isFolderish else {
                throw NuxeoError.badRequest("Cannot create document '\(name)' in non-folderish document \(parent)")
            }
            let properties = body["properties"] ?? .object([])
            let title = properties["dc:title"]?.stringValue
            let doc = state.repository.insert(parent: parent, name: PathSegment.generate(name), type: docType, title: title, user: req.user)
            var copy = doc
            Self.apply(properties, to: &copy, batches: &state.batches, dropBatches: !noDrop)
            state.repository.documents[doc.uid] = copy
            state.repository.log(AuditEntry.Event.created, doc.uid, user: req.user)
            return doc.uid
        }
        return try documentReply(req, uid: uid, status: 201)
    }

    /// `PUT`: optimistic check on `uid` + `changeToken`, then apply the present properties.
    func update(_ req: ServerRequest, uid: String) async throws -> Response {
        let body = try await req.jsonBody()
        let noDrop = req.header("X-Batch-No-Drop")?.lowercased() == "true"
        try core.withState { state in
            guard var doc = state.repository.document(uid) else { throw NuxeoError.notFound(uid) }
            if body["uid"]?.stringValue != nil, let token = body["changeToken"]?.stringValue {
                let sent = token.split(separator: "-").last.map(String.init) ?? token
                if sent != String(doc.userChange) { throw NuxeoError.conflict(uid) }
            }
            if let properties = body["properties"] {
                Self.apply(properties, to: &doc, batches: &state.batches, dropBatches: !noDrop)
            }
            doc.touch(by: req.user)
            state.repository.documents[uid] = doc
            state.repository.log(AuditEntry.Event.modified, uid, user: req.user)
        }
        return try documentReply(req, uid: uid)
    }

    /// Applies a `properties` object: `null` clears, `file:content` may reference
    /// a batch (the batch is then dropped unless `dropBatches` is false).
    static func apply(_ properties: NXJSON, to doc: inout StoredDocument, batches: inout BatchStore, dropBatches: Bool) {
        guard case .object(let members) = properties else { return }
        for (key, value) in members {
            switch key {
            case "dc:title": doc.title = value.stringValue
            case "dc:created", "dc:modified", "dc:creator", "dc:lastContributor", "dc:contributors": continue
            case "file:content":
                if value.isNull {
                    doc.blob = nil
                } else if let batch = value["upload-batch"]?.stringValue {
                    let index = value["upload-fileId"]?.intValue ?? 0
                    doc.blob = batches.file(batch, index)?.blob
                    if dropBatches { batches.drop(batch) }
                }
            default:
                if value.isNull { doc.extra[key] = nil } else { doc.extra[key] = value }
            }
        }
    }
}
