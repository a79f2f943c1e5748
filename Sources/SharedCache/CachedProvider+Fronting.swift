import ProviderAPI
import TransferEngine

extension CachedProvider: FrontingProvider {
    /// Whether the sync journal holds offline writes not yet sent to the server (a journal that
    /// cannot be read counts as holding some): the transfer engine keeps no folder record then.
    package func holdsUnsentWrites() async -> Bool {
        guard let waiting = try? await store.journal(for: account).count() else { return true }
        return waiting > 0
    }
}
