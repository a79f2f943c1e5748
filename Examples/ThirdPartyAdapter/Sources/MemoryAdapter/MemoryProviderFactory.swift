import Foundation
import ProviderAPI

/// Makes ``MemoryProvider`` values for `memory://NAME/` URLs: one volume per name, kept as long
/// as the factory.
///
/// Register it with a `ProviderRegistry`, or give it to the command line:
///
/// ```swift
/// let registry = ProviderRegistry()
/// registry.register(MemoryProviderFactory())
/// let (provider, path) = try await registry.provider(for: URL(string: "memory://scratch/notes/today.txt")!)
/// ```
///
/// Everything is lost when the process ends: in a command line each command starts with empty
/// volumes, except `conformance`, which runs whole in one process.
public struct MemoryProviderFactory: ProviderFactory {
    /// The volumes of this factory and of every copy of it.
    private let volumes = MemoryVolumes()

    /// A factory with no volume yet; each name gets an empty one when first used.
    public init() {}

    public var kind: String { "memory" }

    /// `memory` URLs are handed to the provider as they are: there is no wire scheme.
    public var schemes: [String: String] { ["memory": "memory"] }

    /// A provider rooted at the volume the URL's host names.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL without a host or with a path
    ///   (a provider is rooted at a volume's root; a path names an item below it).
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        let url = configuration.url
        guard let name = url.host, !name.isEmpty else {
            throw ProviderError(.invalidArgument, "a memory URL names its volume: memory://NAME/")
        }
        guard url.path.isEmpty || url.path == "/" else {
            throw ProviderError(.invalidArgument, "a memory provider is rooted at its volume, memory://\(name)/, not at \(url.path)")
        }
        return MemoryProvider(volume: volumes.volume(named: name), account: ProviderAccount(kind: kind, server: "memory://\(name)"))
    }
}
