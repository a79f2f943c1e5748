import ProviderAPI

/// A test provider that passes every call to `base`; a conforming type changes only the calls
/// (or the account and capabilities) it is about.
protocol ForwardingProvider: StorageProvider {
    var base: any StorageProvider { get }
}

extension ForwardingProvider {
    var account: ProviderAccount { base.account }
    var capabilities: Capabilities { base.capabilities }

    func item(at path: ItemPath) async throws -> Item { try await base.item(at: path) }
    func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage { try await base.list(folder, page: page) }
    func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        try await base.download(path, to: sink, options: options)
    }
    func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        try await base.upload(source, to: folder, name: name, options: options)
    }
    func createFolder(named name: String, in parent: ItemPath) async throws -> Item { try await base.createFolder(named: name, in: parent) }
    func delete(_ path: ItemPath) async throws { try await base.delete(path) }
    func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await base.move(source, to: destination, options: options)
    }
    func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        try await base.copy(source, to: destination, options: options)
    }
    func location(of path: ItemPath) async throws -> TreeLocation { try await base.location(of: path) }
}
