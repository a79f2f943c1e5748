import Foundation
import ProviderAPI
import HTTPProviderKit

extension NuxeoProvider {
    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        try ItemPath.validate(name: name)
        let parentDocument = try await folderDocument(parent)
        if try await resolver.child(named: name, of: parentDocument.uid, byServerName: false) != nil {
            throw ProviderError(.alreadyExists, "\(try parent.appending(name)) already exists")
        }
        let type = parentDocument.type == "WorkspaceRoot" ? "Workspace" : "Folder"
        let document = try await client.create(
            .create(name: name, type: type, properties: ["dc:title": .string(name)]), in: parentDocument.uid)
        let path = try parent.appending(name)
        await resolver.remember(path, uid: document.uid, isFolder: true)
        return mapper.item(from: document, at: path)
    }

    public func delete(_ path: ItemPath) async throws {
        if path.isRoot { throw ProviderError(.invalidArgument, "the provider root cannot be deleted") }
        let uid = try await resolver.uid(of: path)
        do {
            if settings.deleteMovesToTrash {
                _ = try await client.automation(NuxeoAutomationRequest("Document.Trash", input: .document(uid)))
            } else {
                try await client.delete(uid: uid)
            }
        } catch let error as ProviderError where error.code == .notFound {
            await resolver.forget(path)
            throw ProviderError(.notFound, "\(path) not found", httpStatus: error.httpStatus, request: error.request)
        }
        await resolver.forget(path)
    }

    /// Updates properties of the document at `path` (`dc:description`, a custom schema's fields, …).
    ///
    /// With `changeToken` (an item's `Item.etag`), the server refuses the write with
    /// `ProviderError.Code.conflict` when someone changed the document since. Setting `dc:title`
    /// renames the item.
    @discardableResult
    public func update(_ path: ItemPath, properties: [String: JSONValue], changeToken: String? = nil) async throws -> NuxeoDocument {
        let uid = try await resolver.uid(of: path)
        var draft = NuxeoDocumentDraft(properties: properties)
        if let changeToken {
            draft.uid = uid
            draft.changeToken = changeToken
        }
        let document = try await client.update(draft, uid: uid)
        if properties["dc:title"] != nil { await resolver.forget(path) }
        return document
    }

    /// Moves the item at `path` to the trash (Nuxeo 10.2 and later): it leaves listings and paths,
    /// and ``untrash(uid:)`` brings it back.
    @discardableResult
    public func trash(_ path: ItemPath) async throws -> NuxeoDocument {
        let uid = try await resolver.uid(of: path)
        let result = try await client.automation(NuxeoAutomationRequest("Document.Trash", input: .document(uid)))
        await resolver.forget(path)
        guard let document = result.document else { throw ProviderError(.invalidResponse, "Document.Trash answered no document") }
        return document
    }

    /// Restores a trashed document by uid.
    @discardableResult
    public func untrash(uid: String) async throws -> NuxeoDocument {
        let result = try await client.automation(NuxeoAutomationRequest("Document.Untrash", input: .document(uid)))
        guard let document = result.document else { throw ProviderError(.invalidResponse, "Document.Untrash answered no document") }
        return document
    }

    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await transfer("Document.Move", source, to: destination, options: options)
    }

    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await transfer("Document.Copy", source, to: destination, options: options)
    }

    /// Moves or copies with Automation, then sets the title when the name changes
    /// (`Document.Move`'s `name` only renames the server's path segment).
    private func transfer(_ operation: String, _ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try source.checkTransfer(to: destination, action: operation == "Document.Move" ? "move" : "copy")
        let document = try await resolver.document(at: source)
        let target = try await folderDocument(destination.parent)
        if let existing = try await resolver.child(named: destination.name, of: target.uid, byServerName: false) {
            guard options.overwrite else { throw ProviderError(.alreadyExists, "\(destination) already exists") }
            if existing.uid != document.uid {
                try await client.delete(uid: existing.uid)
                await resolver.forget(destination)
            }
        }
        let result = try await client.automation(NuxeoAutomationRequest(
            operation, input: .document(document.uid),
            params: ["target": .string(target.uid), "name": .string(destination.name)]))
        guard var moved = result.document else { throw ProviderError(.invalidResponse, "\(operation) answered no document") }
        if !mapper.displayName(of: moved).unicodeScalars.elementsEqual(destination.name.unicodeScalars) {
            moved = try await client.update(NuxeoDocumentDraft(properties: ["dc:title": .string(destination.name)]), uid: moved.uid)
        }
        if operation == "Document.Move" { await resolver.forget(source) }
        await resolver.forget(destination)
        await resolver.remember(destination, uid: moved.uid, isFolder: moved.isFolderish)
        return mapper.item(from: moved, at: destination)
    }

    /// The folder document at `path`; `notFound` when missing, `invalidArgument` when a file.
    func folderDocument(_ path: ItemPath) async throws -> NuxeoDocument {
        let document = try await resolver.document(at: path)
        guard document.isFolderish else { throw ProviderError(.invalidArgument, "\(path) is a file, not a folder") }
        return document
    }
}
