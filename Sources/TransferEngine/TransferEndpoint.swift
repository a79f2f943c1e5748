import ProviderAPI

/// One side of a transfer: a provider and a path on it (a folder, or for the source a single file).
public struct TransferEndpoint: Sendable {
    /// The provider.
    package var provider: any StorageProvider
    /// The folder or file on it.
    package var path: ItemPath

    /// The item at `path` on `provider` (its root by default).
    public init(_ provider: any StorageProvider, at path: ItemPath = .root) {
        self.provider = provider
        self.path = path
    }
}
