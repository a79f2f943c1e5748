import Foundation

extension DocumentWriter {
    /// The `properties` object for the schemas asked.
    func properties(of doc: StoredDocument) -> NXJSON {
        var members: [(String, NXJSON)] = []
        var written: Set<String> = []
        for schema in doc.type.schemas where options.includes(schema: schema) {
            for (key, value) in schemaProperties(schema, of: doc) {
                members.append((key, value))
                written.insert(key)
            }
        }
        for key in doc.extra.keys.sorted() where !written.contains(key) {
            let prefix = key.split(separator: ":").first.map(String.init) ?? ""
            let schema = DocumentType.schema(ofPrefix: prefix)
            let known = doc.type.schemas.contains(schema)
            if (known && options.includes(schema: schema)) || (!known && options.schemas == .all) {
                members.append((key, doc.extra[key] ?? .null))
            }
        }
        return .object(members)
    }

    private func schemaProperties(_ schema: String, of doc: StoredDocument) -> [(String, NXJSON)] {
        func value(_ key: String, _ fallback: NXJSON = .null) -> (String, NXJSON) {
            (key, doc.extra[key] ?? fallback)
        }
        switch schema {
        case "common":
            return [value("common:icon", icon(of: doc)), value("common:icon-expanded")]
        case "dublincore":
            return [
                ("dc:contributors", doc.property("dc:contributors")), value("dc:coverage"),
                ("dc:created", doc.property("dc:created")), ("dc:creator", doc.property("dc:creator")),
                value("dc:description"), value("dc:expired"), value("dc:format"), value("dc:issued"),
                value("dc:language"), ("dc:lastContributor", doc.property("dc:lastContributor")),
                ("dc:modified", doc.property("dc:modified")), value("dc:nature"), value("dc:publisher"),
                value("dc:rights"), value("dc:source"), value("dc:subjects", .array([])),
                ("dc:title", doc.property("dc:title")), value("dc:valid"),
            ]
        case "file":
            return [("file:content", blobValue(doc.blob, of: doc))]
        case "files":
            return [value("files:files", .array([]))]
        case "uid":
            return [value("uid:major_version", .int(0)), value("uid:minor_version", .int(0)), value("uid:uid")]
        case "note":
            return [value("note:mime_type"), value("note:note")]
        default:
            return []
        }
    }

    private func icon(of doc: StoredDocument) -> NXJSON {
        switch doc.type.name {
        case "Root": return .null
        case "File": return .string("/icons/file.gif")
        case "Note": return .string("/icons/note.gif")
        case "Domain": return .string("/icons/domain.gif")
        case "Workspace", "WorkspaceRoot": return .string("/icons/workspace.gif")
        default: return .string("/icons/folder.gif")
        }
    }
}
