import ProviderAPI

/// The cases of the conformance suite.
///
/// Groups run in this order: `listing`, `folders`, `metadata`, `names`, `files`,
/// `conflicts`, `delete`, `move`, `copy`, `ranges`, `resume`, `integrity`, `cancellation`,
/// `progress`, `retries`, `search`, `shares`, `quota`, `changes`, `unsupported`.
///
/// Other modules add sections of their own, appended to ``standard`` in the suite's `cases`:
/// SharedCache's offline cache adds the group `offline` with
/// `ConformanceCatalog.standard + SharedCacheConformance.offline` (module SharedCacheConformance),
/// so that the suite itself does not depend on SharedCache.
public enum ConformanceCatalog {
    /// Every standard case, in the order they run.
    public static var standard: [ConformanceCase] {
        ListingCases.all + FolderCases.all + MetadataCases.all + NameCases.all + FileCases.all + ConflictCases.all
            + DeleteCases.all + ServerTransferCases.all + RangeCases.all + ResumeCases.all + IntegrityCases.all + CancellationCases.all
            + ProgressCases.all + RetryCases.all + AuthCases.all + OptionalFeatureCases.all + UnsupportedCases.all
    }

    /// The groups of ``standard``, in order.
    package static var groups: [String] {
        var seen: Set<String> = []
        return standard.map(\.group).filter { seen.insert($0).inserted }
    }
}
