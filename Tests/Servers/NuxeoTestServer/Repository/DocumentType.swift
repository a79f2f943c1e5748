import Foundation

/// The static description of a document type: facets and schemas.
struct DocumentType: Sendable {
    let name: String
    let facets: [String]
    let schemas: [String]

    var isFolderish: Bool { facets.contains("Folderish") }

    /// Schema name → property prefix.
    static func prefix(ofSchema schema: String) -> String {
        schema == "dublincore" ? "dc" : schema
    }

    /// Property prefix → schema name.
    static func schema(ofPrefix prefix: String) -> String {
        prefix == "dc" ? "dublincore" : prefix
    }

    private static let folderSchemas = ["common", "dublincore"]
    private static let all: [String: DocumentType] = [
        "Root": .init(name: "Root", facets: ["Folderish", "NotCollectionMember"], schemas: folderSchemas),
        "Domain": .init(name: "Domain", facets: ["Folderish", "SuperSpace", "NotCollectionMember"], schemas: folderSchemas),
        "WorkspaceRoot": .init(name: "WorkspaceRoot", facets: ["Folderish", "NotCollectionMember"], schemas: folderSchemas),
        "Workspace": .init(name: "Workspace", facets: ["Folderish", "SuperSpace", "NotCollectionMember"], schemas: folderSchemas),
        "Folder": .init(name: "Folder", facets: ["Folderish", "NotCollectionMember"], schemas: folderSchemas),
        "OrderedFolder": .init(name: "OrderedFolder", facets: ["Folderish", "Orderable", "NotCollectionMember"], schemas: folderSchemas),
        "File": .init(
            name: "File", facets: ["Downloadable", "Commentable", "Versionable", "Publishable", "Thumbnail"],
            schemas: ["file", "common", "files", "dublincore", "uid"]
        ),
        "Note": .init(
            name: "Note", facets: ["Commentable", "Versionable", "Publishable", "HasRelatedText"],
            schemas: ["note", "uid", "common", "files", "dublincore"]
        ),
    ]

    /// Types a client may create.
    static let creatable: Set<String> = ["File", "Folder", "Workspace", "OrderedFolder", "Note"]

    static func named(_ name: String) -> DocumentType? { all[name] }
}
