import ProviderConformance

/// The conformance section SharedCache adds: its offline cache in front of the provider under test.
///
/// The suite itself does not depend on SharedCache (nor on GRDB under it); a run that should
/// also prove the provider behind the offline cache adds this section to its cases:
///
/// ```swift
/// let suite = ConformanceSuite(
///     subject: "webdav \(url)", cases: ConformanceCatalog.standard + SharedCacheConformance.offline
/// ) { environment in
///     try await WebDAVProvider.connect(ProviderConfiguration(url: url, credentials: credentials, transport: environment.transport))
/// }
/// ```
///
/// The section's cases cut the network under the cache with a fault-injecting transport, so a
/// provider that does not send through the offered transport skips them with
/// `SkipReason.noTransport`.
public enum SharedCacheConformance {
    /// The group `offline`: `offline.cachedReads`, listing, stat, search and download through a
    /// `CachedProvider` after the network is cut.
    public static var offline: [ConformanceCase] { OfflineCases.all }
}
