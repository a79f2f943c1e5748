import Foundation
import ProviderAPI
import HTTPProviderKit

extension PydioProvider {
    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item {
        try ItemPath.validate(name: name)
        guard capabilities.names.accepts(name) else {
            throw ProviderError(.invalidArgument, "Pydio refuses the name \(name.debugDescription); encode it with NameEncoder")
        }
        let target = try parent.appending(name)
        let folder = try await item(at: parent)
        guard folder.kind == .folder else { throw ProviderError(.invalidArgument, "\(parent) is a file, not a folder") }
        if let existing = try await node(at: target) {
            throw ProviderError(.alreadyExists, "\(target) already exists as a \(existing.isFile ? "file" : "folder")")
        }
        let change = try await write("mkdir", [("dir", remote(parent)), ("dirname", Self.wire(name))])
        if let node = change.added.first, let path = local(node.path) { return item(node, at: path) }
        return try await item(at: target)
    }

    public func delete(_ path: ItemPath) async throws {
        if path.isRoot { throw ProviderError(.invalidArgument, "the provider root cannot be deleted") }
        guard try await node(at: path) != nil else { throw ProviderError(.notFound, "\(path) not found") }
        let change = try await write("delete", [("nodes[]", remote(path))])
        if change.isPending { try await waitUntilGone(path) }
    }

    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await transfer("move", source, to: destination, options: options)
    }

    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await transfer("copy", source, to: destination, options: options)
    }

    /// `move` or `copy` into the destination's folder, then `rename` when the name changes.
    private func transfer(_ action: String, _ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try source.checkTransfer(to: destination, action: action)
        guard capabilities.names.accepts(destination.name) else {
            throw ProviderError(.invalidArgument, "Pydio refuses the name \(destination.name.debugDescription)")
        }
        guard let node = try await node(at: source) else { throw ProviderError(.notFound, "\(source) not found") }
        let target = try await item(at: destination.parent)
        guard target.kind == .folder else { throw ProviderError(.invalidArgument, "\(destination.parent) is a file, not a folder") }
        if try await self.node(at: destination) != nil {
            guard options.overwrite else { throw ProviderError(.alreadyExists, "\(destination) already exists") }
            try await delete(destination)
        }
        let sameFolder = destination.parent == source.parent
        if action == "move", sameFolder {
            _ = try await write("rename", [("file", remote(source)), ("filename_new", Self.wire(destination.name))])
            return try await item(at: destination)
        }
        if action == "copy", sameFolder || destination.name != source.name {
            // Copy under the new name in one step where the server takes targetBaseName.
            let change = try await write(
                "copy", [("dest", remote(destination.parent)), ("nodes[]", remote(source)), ("targetBaseName", Self.wire(destination.name))])
            if change.isPending { try await waitUntilPresent(destination) }
            if let found = try await self.node(at: destination) { return item(found, at: destination) }
            // A server that ignores targetBaseName copied under the old name: rename the copy.
            let copied = try destination.parent.appending(node.storedName)
            _ = try await write("rename", [("file", remote(copied)), ("filename_new", Self.wire(destination.name))])
            return try await item(at: destination)
        }
        let change = try await write(action, [("dest", remote(destination.parent)), ("nodes[]", remote(source))])
        if change.isPending { try await waitUntilPresent(try destination.parent.appending(source.name)) }
        if destination.name != source.name {
            _ = try await write("rename", [("file", remote(try destination.parent.appending(source.name))), ("filename_new", Self.wire(destination.name))])
        }
        return try await item(at: destination)
    }

    /// Runs a write and reads its answer; an empty answer means the workspace does not allow it.
    @discardableResult
    func write(_ action: String, _ extra: [(String, String)]) async throws -> PydioChange {
        let chain = ResponseRecognizerChain([
            PydioRecognizers.notSignedIn(), PydioRecognizers.serverError(), PydioRecognizers.textError(),
            ResponseRecognizer<PydioChange>("empty") { answer in
                answer.isEmpty ? .failure(ProviderError(.forbidden, "the workspace does not allow \(action)", request: answer.request)) : nil
            },
            PydioRecognizers.change,
        ])
        return try await session.call(action, parameters(extra), post: true, chain: chain)
    }

    /// Waits for a background task (`<consume_channel/>`) to remove `path`.
    func waitUntilGone(_ path: ItemPath) async throws {
        for _ in 0..<120 {
            if try await node(at: path) == nil { return }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw ProviderError(.server, "\(path) is still there 30 s after the server accepted its deletion")
    }

    /// Waits for a background task to make `path` appear.
    func waitUntilPresent(_ path: ItemPath) async throws {
        for _ in 0..<120 {
            if try await node(at: path) != nil { return }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw ProviderError(.server, "\(path) has not appeared 30 s after the server accepted the change")
    }
}
