import Foundation

/// Writes `document` entities in the 10.10 field order (spec §2.2).
struct DocumentWriter {
    let repository: Repository
    let options: RenderOptions
    /// `http://127.0.0.1:PORT/nuxeo`
    let baseURL: String
    let user: String
    let now = DateCodec.nowMillis()

    func document(_ doc: StoredDocument, enrich: Bool = true) -> NXJSON {
        var m: [(String, NXJSON)] = [
            ("entity-type", .string("document")),
            ("repository", .string("default")),
            ("uid", .string(doc.uid)),
            ("path", .string(repository.path(of: doc.uid))),
            ("type", .string(doc.type.name)),
            ("state", doc.isRoot ? .null : .string("project")),
            ("parentRef", .string(doc.parentUID ?? "/")),
            ("isCheckedOut", .bool(true)),
            ("isRecord", .bool(false)),
            ("retainUntil", .null),
            ("hasLegalHold", .bool(false)),
            ("isUnderRetentionOrLegalHold", .bool(false)),
            ("isVersion", .bool(false)),
            ("isProxy", .bool(false)),
            ("changeToken", doc.changeToken.map(NXJSON.string) ?? .null),
            ("isTrashed", .bool(doc.isTrashed)),
            ("title", .string(doc.displayTitle)),
        ]
        if let modified = doc.modified {
            m.append(("lastModified", .string(DateCodec.w3c(modified))))
        }
        if options.schemas != .omitted {
            m.append(("properties", properties(of: doc)))
        }
        m.append(("facets", .array(doc.type.facets.map(NXJSON.string))))
        m.append(("schemas", .array(doc.type.schemas.map {
            .object([("name", .string($0)), ("prefix", .string(DocumentType.prefix(ofSchema: $0)))])
        })))
        if enrich, !options.enrichers.isEmpty {
            m.append(("contextParameters", contextParameters(of: doc)))
        }
        return .object(m)
    }

    /// The blob property value; `length` is a string (spec §2.2).
    func blobValue(_ blob: StoredBlob?, of doc: StoredDocument) -> NXJSON {
        guard let blob else { return .null }
        let data = "\(baseURL)/nxfile/default/\(doc.uid)/file:content/\(FormDecoding.encodeComponent(blob.filename))"
            + "?changeToken=\(doc.changeToken ?? "")"
        return .object([
            ("name", .string(blob.filename)),
            ("mime-type", blob.mimeType.map(NXJSON.string) ?? .null),
            ("encoding", blob.encoding.map(NXJSON.string) ?? .null),
            ("digestAlgorithm", .string("MD5")),
            ("digest", .string(blob.digest)),
            ("length", .string(String(blob.length))),
            ("data", .string(data)),
        ])
    }
}
