import ProviderAPI

/// A provider for tests that need one but none of its calls: every call the protocol requires
/// throws `unsupported` unless the conforming type implements it.
public protocol StubProvider: StorageProvider {}

extension StubProvider {
    public func item(at path: ItemPath) async throws -> Item { throw ProviderError.unsupported("item") }
    public func list(_ folder: ItemPath, page: PageRequest) async throws -> ItemPage { throw ProviderError.unsupported("list") }
    public func download(_ path: ItemPath, to sink: any DownloadSink, options: DownloadOptions) async throws -> DownloadResult {
        throw ProviderError.unsupported("download")
    }
    public func upload(_ source: any UploadSource, to folder: ItemPath, name: String, options: UploadOptions) async throws -> Item {
        throw ProviderError.unsupported("upload")
    }
    public func createFolder(named name: String, in parent: ItemPath) async throws -> Item { throw ProviderError.unsupported("mkdir") }
    public func delete(_ path: ItemPath) async throws { throw ProviderError.unsupported("delete") }
    public func move(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        throw ProviderError.unsupported("move")
    }
    public func copy(_ source: ItemPath, to destination: ItemPath, options: TransferOptions) async throws -> Item {
        throw ProviderError.unsupported("copy")
    }
}
