import ProviderAPI

/// A provider that stands in front of another one, such as an offline cache: the transfer engine
/// asks the provider behind it where it must see the server itself, and keeps no record of folders
/// found the same while the front holds writes the provider behind has not received.
///
/// `SharedCache`'s `CachedProvider` is one.
package protocol FrontingProvider: StorageProvider {
    /// The provider behind this one.
    var base: any StorageProvider { get }
    /// Whether writes made through this provider are still waiting to reach ``base``; `true` when
    /// it cannot tell.
    func holdsUnsentWrites() async -> Bool
}
