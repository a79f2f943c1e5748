import Foundation

/// The in-memory document tree: lookup by uid and path, children, ancestors.
/// Mutations live in `Repository+Mutations.swift`.
struct Repository: Sendable {
    var documents: [String: StoredDocument] = [:]
    var childIndex: [String: [String]] = [:]
    let rootUID: String
    var sequence = 0
    /// Every change, oldest first (see `Repository+Audit.swift`).
    var auditLog: [AuditEntry] = []

    /// Builds `/`, `/default-domain`, `/default-domain/workspaces`, `/default-domain/workspaces/strata`.
    init() {
        rootUID = UUID().uuidString.lowercased()
        let now = DateCodec.nowMillis()
        var root = StoredDocument(uid: rootUID, name: "", type: Self.type("Root"), parentUID: nil, sequence: 0)
        root.acls = [StoredACL(name: "local", aces: [
            StoredACE(username: "Administrator", permission: "Everything", granted: true),
            StoredACE(username: "administrators", permission: "Everything", granted: true),
            StoredACE(username: "members", permission: "Read", granted: true),
        ])]
        documents[rootUID] = root
        var parent = rootUID
        for (name, type, title) in [("default-domain", "Domain", "Domain"),
                                    ("workspaces", "WorkspaceRoot", "Workspaces"),
                                    ("strata", "Workspace", "strata")] {
            parent = insert(parent: parent, name: name, type: Self.type(type), title: title, user: "system", at: now).uid
            log(AuditEntry.Event.created, parent, user: "system")
        }
    }

    static func type(_ name: String) -> DocumentType {
        DocumentType.named(name) ?? DocumentType(name: name, facets: [], schemas: ["common", "dublincore"])
    }

    var count: Int { documents.count }

    func document(_ uid: String) -> StoredDocument? { documents[uid] }

    /// The absolute path (`/` for the root).
    func path(of uid: String) -> String {
        var names: [String] = []
        var current = documents[uid]
        while let doc = current, !doc.isRoot {
            names.append(doc.name)
            current = doc.parentUID.flatMap { documents[$0] }
        }
        return "/" + names.reversed().joined(separator: "/")
    }

    /// Resolves already-decoded path segments from the root.
    func resolve(segments: [String]) -> StoredDocument? {
        var current = documents[rootUID]
        for segment in segments where !segment.isEmpty {
            guard let doc = current else { return nil }
            current = children(of: doc.uid).first { $0.name == segment }
        }
        return current
    }

    /// A reference is a path when it starts with `/`, else a uid.
    func resolve(reference: String) -> StoredDocument? {
        var ref = reference.trimmingCharacters(in: .whitespaces)
        if ref.hasPrefix("doc:") { ref.removeFirst(4) }
        if ref.hasPrefix("/") {
            return resolve(segments: ref.split(separator: "/").map(String.init))
        }
        return documents[ref]
    }

    /// All children (trashed ones included), in insertion order.
    func children(of uid: String) -> [StoredDocument] {
        (childIndex[uid] ?? []).compactMap { documents[$0] }
    }

    /// Ancestors from the root down to the parent (the document itself excluded).
    func ancestors(of uid: String) -> [StoredDocument] {
        var result: [StoredDocument] = []
        var current = documents[uid]?.parentUID.flatMap { documents[$0] }
        while let doc = current {
            result.append(doc)
            current = doc.parentUID.flatMap { documents[$0] }
        }
        return result.reversed()
    }

    /// Every document strictly below `uid`.
    func descendants(of uid: String) -> [StoredDocument] {
        var result: [StoredDocument] = []
        var stack = childIndex[uid] ?? []
        while let next = stack.popLast() {
            guard let doc = documents[next] else { continue }
            result.append(doc)
            stack.append(contentsOf: childIndex[next] ?? [])
        }
        return result
    }

    /// `true` when a child of `parent` other than `except` is named `name`.
    func nameTaken(_ name: String, in parent: String, except: String? = nil) -> Bool {
        children(of: parent).contains { $0.name == name && $0.uid != except }
    }
}
