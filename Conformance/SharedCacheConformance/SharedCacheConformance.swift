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

    /// The group `journal`: writes made offline through a `CachedProvider`'s sync journal.
    ///
    /// - `journal.replay`: offline uploads, a rename, a delete and a new folder, shown pending, replayed in order;
    /// - `journal.conflict`: a file changed on the server meanwhile is a conflict that changes nothing
    ///   on the server; keep-mine writes a new name, take-theirs keeps the server's;
    /// - `journal.targetFolderGone`: an upload into a folder deleted on the server is a conflict; keep-mine makes it again;
    /// - `journal.search` (providers with search): before the replay, the online search finds a file
    ///   uploaded offline, marked pending, and not one deleted offline.
    ///
    /// The cases use the journal's explicit offline mode, so they need no transport and run for every adapter.
    public static var journal: [ConformanceCase] { JournalCases.all }
}
