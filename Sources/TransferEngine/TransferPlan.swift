import ProviderAPI

/// What a copy or sync will do, worked out from listings of both sides before anything is sent.
///
/// Actions come in the order of a breadth-first walk of the source: a folder's creation before
/// anything inside it. ``TransferManager/plan(_:from:to:)`` makes one; a dry run prints it.
public struct TransferPlan: Sendable, Encodable {
    /// Copy or sync.
    public var mode: TransferMode
    /// How files were compared.
    public var rule: SameFileRule
    /// Every step, skipped files included.
    public var actions: [TransferAction]
    /// Names the destination cannot store, and what they become there.
    public var mappedNames: [NameMapping]
    /// Items that cannot be transferred as planned (in a copy, a folder where the source has a
    /// file, or the reverse), with the error each will report.
    public var problems: [TransferFailure]
    /// What the sync's deletions take from the destination, every file and folder inside the
    /// folders it deletes included, and how many files the destination holds; counted by
    /// ``TransferManager/plan(_:from:to:)`` and before a sync runs (empty in a copy).
    public var deletions = DeletionCount()
    /// The folders listed on the way, and those left unlisted because the job's record showed them
    /// unchanged on both sides (`TransferManager.Options.jobStore`).
    var scan = FolderScan()
    /// The source items among ``problems`` whose names the destination would make one with
    /// another's (none of such a group is copied); `check` reports them apart.
    var nameConflicts: [ItemPath] = []
    /// What the source holds that is neither a file nor a folder (links, FIFOs, devices): not
    /// transferred, and what the destination holds under those names is not deleted.
    public var skipped: [SkippedSource] = []
    /// How the files found the same on both sides were compared: by content, or by sizes and
    /// times only (files skipped as finished by an interrupted run, and files below folders left
    /// unlisted, are not counted).
    public var matchedBy = ComparisonCounts()

    private enum CodingKeys: String, CodingKey {
        case mode, rule, actions, mappedNames, problems, deletions, matchedBy, skipped
    }

    /// Creates a plan.
    package init(
        mode: TransferMode, rule: SameFileRule, actions: [TransferAction] = [], mappedNames: [NameMapping] = [],
        problems: [TransferFailure] = []
    ) {
        self.mode = mode
        self.rule = rule
        self.actions = actions
        self.mappedNames = mappedNames
        self.problems = problems
    }

    /// The actions of one kind.
    public func actions(_ kind: TransferAction.Kind) -> [TransferAction] { actions.filter { $0.kind == kind } }

    /// The bytes the copies will send, counting files of unknown size as 0.
    public var bytesToCopy: Int64 { actions.reduce(0) { $0 + ($1.kind == .copyFile ? ($1.size ?? 0) : 0) } }

    /// Files not listed because they are below a folder that the job's record shows unchanged on
    /// both sides since its last finished run: the same on both sides, like the skipped files.
    package var filesInUnchangedFolders: Int { scan.unchanged.reduce(0) { $0 + $1.files } }

    /// Whether the plan changes nothing on the destination.
    public var changesNothing: Bool { !actions.contains { $0.kind != .skip } }
}
