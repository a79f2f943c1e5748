import NIOConcurrencyHelpers
import ProviderAPI

/// The volumes of a ``MemoryProviderFactory``, by name.
final class MemoryVolumes: Sendable {
    private let volumes = NIOLockedValueBox<[String: MemoryVolume]>([:])

    /// The volume called `name`, made empty when first asked for.
    func volume(named name: String) -> MemoryVolume {
        volumes.withLockedValue { volumes in
            if let volume = volumes[name] { return volume }
            let volume = MemoryVolume(rules: MemoryProvider.memoryCapabilities.names)
            volumes[name] = volume
            return volume
        }
    }
}
