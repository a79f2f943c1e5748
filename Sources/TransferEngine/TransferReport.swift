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
    /// Whether the job took up an unfinished run of the same job (``TransferManager/Options/jobStore``).
    public var resumed = false
    /// Items deleted from the destination.
    public var deleted = 0
    /// Deletions not done: all of them when the plan has more than the deletion limit, the
    /// extras when a copy failed (a sync deletes only after every copy succeeded).
    public var deletionsSkipped = 0
    /// Whether the plan had more deletions than the limit allows.
    public var deletionLimitExceeded = false
    /// What failed, the plan's problems included.
    public var failures: [TransferFailure] = []

    /// Creates a report of `plan`.
    public init(plan: TransferPlan, dryRun: Bool) {
        self.plan = plan
        self.dryRun = dryRun
    }

    /// Whether the job did all it should have: no failure and no deletion left undone.
    public var succeeded: Bool { failures.isEmpty && !deletionLimitExceeded && deletionsSkipped == 0 }
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
    /// Files found the same.
    public var matching = 0
    /// Names the destination cannot store, and what they are expected to be there.
    public var mappedNames: [NameMapping] = []
    /// How names were matched: as the destination tells them apart (`NameRules.identityDescription`,
    /// such as `case-sensitive, byte-exact` or `case-insensitive, NFC`).
    public var names = "case-sensitive, byte-exact"
    /// Source items whose names the destination would make one with another source item's (only
    /// their case or Unicode normalisation differs): the destination cannot hold them all.
    public var nameConflicts: [ItemPath] = []

    /// Creates an empty report.
    public init(rule: SameFileRule) { self.rule = rule }

    /// Whether the two trees are the same.
    public var isIdentical: Bool { missing.isEmpty && extra.isEmpty && differing.isEmpty && nameConflicts.isEmpty }
}
