import Foundation

extension Repository {
    /// Creates a child; the name is de-duplicated against its siblings (never a 409).
    /// Logs nothing: callers log `documentCreated` once the properties are set.
    /// `taken` replaces the scan of the siblings' names (bulk seeding keeps a set of them).
    @discardableResult
    mutating func insert(
        parent: String, name: String, type: DocumentType, title: String?, user: String,
        at millis: Int64 = DateCodec.nowMillis(), taken: ((String) -> Bool)? = nil
    ) -> StoredDocument {
        sequence += 1
        let unique = PathSegment.deduplicate(name) { taken?($0) ?? nameTaken($0, in: parent) }
        var doc = StoredDocument(uid: UUID().uuidString.lowercased(), name: unique, type: type, parentUID: parent, sequence: sequence)
        doc.title = title
        doc.created = millis
        doc.modified = millis
        doc.creator = user
        doc.lastContributor = user
        doc.contributors = [user]
        documents[doc.uid] = doc
        childIndex[parent, default: []].append(doc.uid)
        return doc
    }

    /// Applies `body` to the stored document.
    mutating func mutate(_ uid: String, _ body: (inout StoredDocument) throws -> Void) rethrows {
        guard var doc = documents[uid] else { return }
        try body(&doc)
        documents[uid] = doc
    }

    /// Permanently removes a document and everything below it, without logging
    /// (``delete(_:user:)`` logs).
    mutating func remove(_ uid: String) {
        for child in childIndex[uid] ?? [] { remove(child) }
        childIndex[uid] = nil
        if let parent = documents[uid]?.parentUID {
            childIndex[parent]?.removeAll { $0 == uid }
        }
        documents[uid] = nil
    }

    /// Moves `uid` under `target`, optionally renaming it.
    mutating func move(_ uid: String, to target: String, name: String?, user: String) throws {
        guard let doc = documents[uid], let parent = documents[target] else { throw NuxeoError.notFound(uid) }
        guard parent.isFolderish else { throw NuxeoError.badRequest("Cannot move a document into a non-folderish document") }
        if target == uid || descendants(of: uid).contains(where: { $0.uid == target }) {
            throw NuxeoError.badRequest("Cannot move a document under itself")
        }
        let wanted = name.map(PathSegment.generate) ?? doc.name
        let unique = PathSegment.deduplicate(wanted) { nameTaken($0, in: target, except: uid) }
        let previous = ancestors(of: uid).map(\.uid)
        if let old = doc.parentUID { childIndex[old]?.removeAll { $0 == uid } }
        childIndex[target, default: []].append(uid)
        mutate(uid) {
            $0.parentUID = target
            $0.name = unique
            $0.touch(by: user)
        }
        log(AuditEntry.Event.moved, uid, user: user, previousAncestors: previous)
    }

    /// Copies `uid` (recursively, new uids) under `target`; returns the new uid.
    mutating func copy(_ uid: String, to target: String, name: String?, user: String) throws -> String {
        guard let source = documents[uid], let parent = documents[target] else { throw NuxeoError.notFound(uid) }
        guard parent.isFolderish else { throw NuxeoError.badRequest("Cannot copy a document into a non-folderish document") }
        let wanted = name.map(PathSegment.generate) ?? source.name
        let copy = copyTree(source, under: target, name: wanted, user: user)
        // Like Nuxeo, only the top of the copied tree gets an event.
        log(AuditEntry.Event.createdByCopy, copy, user: user)
        return copy
    }

    private mutating func copyTree(_ source: StoredDocument, under target: String, name: String, user: String) -> String {
        let created = insert(parent: target, name: name, type: source.type, title: source.title, user: user)
        mutate(created.uid) {
            $0.extra = source.extra
            $0.blob = source.blob
            $0.isTrashed = source.isTrashed
            $0.acls = source.acls
        }
        for child in children(of: source.uid) {
            _ = copyTree(child, under: created.uid, name: child.name, user: user)
        }
        return created.uid
    }

    /// Trashes: renames to `<name>._<millis>_.trashed` and sets `isTrashed`.
    mutating func trash(_ uid: String, user: String) {
        guard let doc = documents[uid], !doc.isTrashed else { return }
        let name = "\(doc.name)._\(DateCodec.nowMillis())_.trashed"
        mutate(uid) {
            $0.name = name
            $0.isTrashed = true
            $0.touch(by: user)
        }
        log(AuditEntry.Event.trashed, uid, user: user)
    }

    /// Untrashes: restores the mangled name (de-duplicated) and clears `isTrashed`.
    mutating func untrash(_ uid: String, user: String) {
        guard let doc = documents[uid], doc.isTrashed else { return }
        var name = doc.name
        if name.hasSuffix("_.trashed"), let range = name.range(of: "._", options: .backwards) {
            name = String(name[..<range.lowerBound])
        }
        let parent = doc.parentUID ?? rootUID
        let unique = PathSegment.deduplicate(name) { nameTaken($0, in: parent, except: uid) }
        mutate(uid) {
            $0.name = unique
            $0.isTrashed = false
            $0.touch(by: user)
        }
        log(AuditEntry.Event.untrashed, uid, user: user)
    }
}
