import ProviderAPI

/// What a copy or sync did.
public struct TransferReport: Sendable, Encodable {
    /// The plan the job ran (in a dry run, what it would have done).
    public var plan: TransferPlan
    /// Whether nothing was changed on purpose (a dry run).
    public var dryRun: Bool
    /// Folders created.
    public var foldersCreated = 0
    /// Files copied.
    public var filesCopied = 0
    /// Bytes of the files copied.
    public var bytesCopied: Int64 = 0
    /// Files left as they were, being the same on both sides.
    public var unchanged = 0
    /// Files not sent again because an interrupted run of the same job had sent them
    /// (``TransferAction/Reason/finishedBefore``; not counted in ``unchanged``).
    public var alreadyDone = 0
    /// Whether the job took up an unfinished run of the same job (`TransferManager.Options.jobStore`).
    public var resumed = false
    /// Items deleted from the destination (a folder with its contents counts as one; what went to
    /// the backup directory is counted in ``backedUp`` instead).
    public var deleted = 0
    /// Items of the destination moved into the backup directory instead of being deleted or
    /// overwritten (``TransferManager/Options/backupDirectory``): a folder with its contents counts as one.
    public var backedUp = 0
    /// The folder this run made inside the backup directory, where it moved ``backedUp`` items;
    /// `nil` when nothing needed keeping.
    public var backupFolder: ItemPath?
    /// Deletions not done: all of them when the plan passes a deletion limit, the extras when a
    /// copy failed (a sync deletes only after every copy succeeded).
    public var deletionsSkipped = 0
    /// Whether the plan deletes more items (files and folders, those inside deleted folders
    /// included: ``TransferPlan/deletions``) than ``TransferManager/Options/maxDelete`` allows:
    /// nothing was deleted, the copies were done.
    public var deletionLimitExceeded = false
    /// Whether the plan deletes a larger share of the destination's files than
    /// ``TransferManager/Options/maxDeletePercent`` allows: the job stopped before changing anything
    /// (no copy, no deletion).
    public var deletionShareExceeded = false
    /// What failed, the plan's problems included.
    public var failures: [TransferFailure] = []

    /// Creates a report of `plan`.
    package init(plan: TransferPlan, dryRun: Bool) {
        self.plan = plan
        self.dryRun = dryRun
    }

    /// Whether the job did all it should have: no failure, no deletion left undone, not stopped by a limit.
    public var succeeded: Bool { failures.isEmpty && !deletionLimitExceeded && !deletionShareExceeded && deletionsSkipped == 0 }
}

/// What ``TransferManager/check(_:against:)`` found: where the destination is not like the source.
public struct CheckReport: Sendable, Encodable {
    /// How files were compared.
    public var rule: SameFileRule
    /// Files and folders of the source that the destination lacks (everything inside a missing folder too).
    public var missing: [ItemPath] = []
    /// Items of the destination that the source does not have.
    public var extra: [ItemPath] = []
    /// Files that differ by ``rule``, and names that are a file on one side and a folder on the other.
    public var differing: [ItemPath] = []
    /// Files found the same (``unlisted`` included).
    public var matching = 0
    /// How the matching files that were listed were found the same: by content, or by sizes and
    /// times only (``ComparisonCounts/notByContent``: a file rewritten at the same size with its
    /// modified time set back is among these; `SameFileRule.Comparison.content` reads it).
    public var matchedBy = ComparisonCounts()
    /// Matching files not listed: below folders whose etags on both sides show them unchanged since
    /// the last check of the same two folders found them the same by the same rule.
    public var unlisted = 0
    /// Links and special files of the source, not compared (nothing is said of what the
    /// destination holds under their names).
    public var skipped: [SkippedSource] = []
    /// Names the destination cannot store, and what they are expected to be there.
    public var mappedNames: [NameMapping] = []
    /// How names were matched: as the destination tells them apart (`NameRules.identityDescription`,
    /// such as `case-sensitive, byte-exact` or `case-insensitive, NFC`).
    public var names = "case-sensitive, byte-exact"
    /// Source items whose names the destination would make one with another source item's (only
    /// their case or Unicode normalisation differs): the destination cannot hold them all.
    public var nameConflicts: [ItemPath] = []

    /// Creates an empty report.
    package init(rule: SameFileRule) { self.rule = rule }

    /// Whether the two trees are the same, as far as ``rule`` compares them.
    public var isIdentical: Bool { missing.isEmpty && extra.isEmpty && differing.isEmpty && nameConflicts.isEmpty }

    /// Matching files whose content was not compared (found the same by sizes or times alone),
    /// the unlisted ones included unless ``rule`` compares content for every file.
    public var contentNotCompared: Int { matchedBy.notByContent + (rule.kind == .digest || rule.comparesContent ? 0 : unlisted) }

    private enum CodingKeys: String, CodingKey {
        case rule, names, missing, extra, differing, nameConflicts, matching, matchedBy, unlisted, contentNotCompared, mappedNames, skipped, isIdentical
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule, forKey: .rule)
        try container.encode(missing, forKey: .missing)
        try container.encode(extra, forKey: .extra)
        try container.encode(differing, forKey: .differing)
        try container.encode(names, forKey: .names)
        try container.encode(nameConflicts, forKey: .nameConflicts)
        try container.encode(matching, forKey: .matching)
        try container.encode(matchedBy, forKey: .matchedBy)
        try container.encode(unlisted, forKey: .unlisted)
        try container.encode(contentNotCompared, forKey: .contentNotCompared)
        try container.encode(mappedNames, forKey: .mappedNames)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(isIdentical, forKey: .isIdentical)
    }
}
