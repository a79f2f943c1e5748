import ProviderAPI

/// Where ``TransferManager`` keeps what lets a job continue and a later run do less: the plans and
/// progress of jobs, the digests computed from source files, the folders found the same, and the
/// names a transfer mapped.
///
/// The transfer engine owns this protocol and works without one (`TransferManager.Options.jobStore`
/// `nil`: nothing is resumed or remembered). `SharedCache` implements it on SQLite
/// (`SQLiteTransferJobStore`, in the offline cache's database), which is what the `strata` command
/// line uses; another store (a server's database, memory for tests) implements the same calls.
///
/// A store must keep the engine's one promise about loss: a file's record is written only after the
/// destination took it (``record(_:_:)`` is called then), so a crash may lose the record of files
/// finished since the last write, never record a file that was not sent. A store that cannot
/// read a record throws: the engine then does the work again (it lists, copies or hashes), never
/// skips it.
package protocol TransferJobStore: Sendable {
    /// Opens the job of `key`: the unfinished job of that key, resumed with the files it finished,
    /// or (none unfinished, or `fresh`) a new job replacing any earlier one.
    func begin(_ key: TransferJobKey, fresh: Bool) async throws -> TransferJob
    /// The files the unfinished job of `key` finished, or `nil` when there is no unfinished job.
    func unfinished(_ key: TransferJobKey) async throws -> [FinishedFile]?
    /// Records the plan of `job`: its actions, planned (an action already recorded keeps its state).
    func recordPlan(_ job: Int64, actions: [TransferJobAction]) async throws
    /// Records the new state of actions of `job` (a done action is never made planned again).
    func record(_ job: Int64, _ actions: [TransferJobAction]) async throws
    /// Marks `job` complete: the next job of its key starts anew.
    func complete(_ job: Int64) async throws

    /// The `algorithm` digest computed earlier from the file at `path` of `account`, if the file is
    /// still the version it was computed from (same size, modified time and etag).
    func digest(of path: ItemPath, account: ProviderAccount, algorithm: DigestAlgorithm, version: FileFingerprint) async throws -> String?
    /// Keeps digests computed from source files, each with the version of the file it was computed from.
    func remember(digests: [ComputedDigest], account: ProviderAccount) async throws

    /// The folders the last finished run of the job of `key` recorded, by relative path; empty when
    /// there is none, or it ran with other `settings`.
    func folderVersions(of key: TransferJobKey, settings: String) async throws -> [ItemPath: FolderVersion]
    /// Replaces the folders recorded for the job of `key` by `versions`, found with `settings`, at once.
    func replaceFolderVersions(of key: TransferJobKey, settings: String, with versions: [FolderVersion]) async throws

    /// Keeps the names of `mappings`, given by a transfer from `sourcePath` of `sourceAccount` to
    /// `destinationPath` of `destinationAccount`: each replaces the record of the same destination item.
    func remember(
        names mappings: [RecordedName], sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount,
        destinationPath: ItemPath
    ) async throws
    /// The names transfers from `sourcePath` of `sourceAccount` to `destinationPath` of `destinationAccount` kept.
    func recordedNames(
        sourceAccount: ProviderAccount, sourcePath: ItemPath, destinationAccount: ProviderAccount, destinationPath: ItemPath
    ) async throws -> [RecordedName]
}
