import Foundation
import Logging
import ProviderAPI

/// Copies, syncs and checks files and trees between any two providers: the `TransferEngine` module's entry point.
///
/// The engine lists both sides (paged, each listing checked by `PageGuard`), plans what to do
/// (``TransferPlan``), then streams each file from the source's download into the destination's
/// upload through a bounded pipe in memory: no whole file is held or written to a temporary
/// file on the way (a destination that needs a length the source did not declare spools it
/// itself). Several files go at once (``Options/transfers``); a file that fails with a network
/// or server error starts again (``Options/fileRetry``); cancelling the task stops the job
/// with `ProviderError.Code.cancelled`.
///
/// With a job store (SharedCache's `TransferManager.Options.keepJobs(in:)`), a copy or sync
/// keeps its plan and progress in the shared cache's database: run again after a crash or a kill, the same job (same mode, source
/// and destination) lists both sides again and sends none of the files the interrupted run
/// finished while they are unchanged (``TransferReport/alreadyDone``); digests computed from
/// source files are kept there too, so an unchanged tree is read once.
///
/// ```swift
/// let transfers = TransferManager(options: .init(transfers: 8)) { event in
///     if case .finished(let action, nil) = event { print("done", action.relativePath) }
/// }
/// let report = try await transfers.sync(
///     from: TransferEndpoint(pydio, at: "/Projects"), to: TransferEndpoint(nextcloud, at: "/Archive/Projects"))
/// print(report.filesCopied, "copied by", report.plan.rule)
/// ```
///
/// ## Topics
/// ### Running
/// - ``copy(from:to:)``
/// - ``sync(from:to:)``
/// - ``check(_:against:)``
/// - ``plan(_:from:to:)``
/// ### Setting up
/// - ``init(options:observer:)``
/// - ``Options``
/// - ``TransferObserver``
public struct TransferManager: Sendable {
    /// How a job runs.
    public struct Options: Sendable {
        /// Files sent, folders created and items deleted at once; 4 by default. Folders are
        /// listed ``checkers`` at once.
        public var transfers: Int
        /// Folders listed at once while a job walks its trees (rclone's checkers); 8 by default.
        ///
        /// The plan lists the source's and the destination's folders of one depth this many at
        /// once (each listing reads both sides), and so do a sync's count of what its deletions take
        /// and the re-read of folder etags a job store keeps. Over a network the walk of a tree costs
        /// a round trip per folder, so more checkers list a wide tree faster; a server that limits
        /// connections may want fewer. Independent of ``transfers``, which bounds the files sent.
        public var checkers: Int
        /// When a file that failed with a network, server, rate-limit or integrity error is
        /// sent again from its start: 3 attempts in all by default, waiting 500 ms, then
        /// longer, between them (a server's `Retry-After` is honoured up to its `maxRetryAfter`).
        public var fileRetry: RetryPolicy
        /// Plan and report, change nothing.
        public var dryRun: Bool
        /// The most items a sync may delete, counting every file and folder inside a folder it
        /// deletes (``TransferPlan/deletions``), not the folder alone; a plan with more deletes
        /// none (items in the way of the source's included), still copies, and reports it
        /// (``TransferReport/deletionLimitExceeded``). `nil`: no limit.
        public var maxDelete: Int?
        /// The largest share of the destination's files, in percent, that a sync may delete (50 by
        /// default): a plan that would delete more (``DeletionCount/percentOfFiles``) stops before
        /// anything is copied, overwritten or deleted, and reports it
        /// (``TransferReport/deletionShareExceeded``). `nil`: no limit (the command line's `--force`).
        ///
        /// The destination's files are those below the job's root: the files the sync leaves,
        /// replaces or deletes, those inside the folders it deletes included. A destination with no
        /// file passes whatever the share.
        public var maxDeletePercent: Double?
        /// A folder on the destination's provider where a sync moves what it would delete or
        /// overwrite, and a copy what it would overwrite, instead of losing it; `nil` (the default):
        /// nothing is kept.
        ///
        /// Each run that has something to keep makes a folder of its own inside it, named after the
        /// time (UTC) the run started (`2026-11-28T02-05-18Z`, `…-2` when that exists), and moves each
        /// item there under its path below the destination's root (``TransferReport/backupFolder``,
        /// ``TransferReport/backedUp``). The folder must be outside the destination's tree and the
        /// source's, and the destination must move (or copy) on the server; else the job is refused
        /// before anything is listed. A file whose move fails is not overwritten, an item not deleted.
        public var backupDirectory: ItemPath?
        /// The page size of the listings; `nil` lets each provider choose.
        package var pageSize: Int?
        /// The most bytes held in memory between a file's download and its upload.
        package var pipeCapacity: Int
        /// Whether a digest that only one side declares is computed on the other side, by reading
        /// each of its files whose size matches the file on the side that declares it
        /// (``SameFileRule``; the name is older than the rule, which is the same whichever side is the
        /// source); `true` by default. Off, such a pair is compared by size and modified time, or size.
        public var computeSourceDigests: Bool
        /// How strongly files are compared: what the listings allow (the default), content by
        /// digests declared or computed (``SameFileRule/Comparison/checksum``: `--checksum`), or
        /// content read from both files (``SameFileRule/Comparison/content``: `check --download`,
        /// which also lists every folder, whatever a job's record says).
        public var comparison: SameFileRule.Comparison = .listings
        /// Where jobs keep their plan and progress, and computed source digests; `nil` (the
        /// default): nothing is kept, and every run plans from the listings alone.
        ///
        /// With a store, a copy or sync whose earlier run of the same job (same mode, source
        /// account and path, destination account and path) did not finish takes it up: a file that
        /// run sent is not sent again while the source is the same version (size, modified time,
        /// etag, digest) and the destination the file it wrote, even where the ``SameFileRule``
        /// alone could not tell. A job that finished with no failure is marked complete, and
        /// the next run of it starts afresh. A file is recorded only after the destination
        /// confirmed its upload, and before it is reported finished.
        ///
        /// Where both providers' folder etags change with anything below them
        /// (`Capabilities.Features.recursiveETags`: ownCloud, Nextcloud), a run that finished with
        /// no failure also keeps each folder's etag on both sides; the next run of the job (and the
        /// next ``TransferManager/check(_:against:)`` of the same folders) reads the two roots and
        /// lists only the folders whose etag changed on either side since: an unchanged tree costs
        /// one request per side, a change deep down one listing per folder on its way. A run
        /// started fresh (``startFresh``) or comparing by another ``SameFileRule`` lists every folder.
        package var jobStore: (any TransferJobStore)?
        /// How deep and how large the trees a job walks may be (``TreeLimits``): past a limit the
        /// job stops while planning, before changing anything.
        package var treeLimits = TreeLimits.standard
        /// Whether an unfinished job in the job store (SharedCache's `keepJobs(in:)`) is started over instead of taken up, and the folder
        /// etags its last finished run kept are ignored (every folder is listed).
        public var startFresh: Bool
        /// Whether a copy or sync whose two targets cannot be told apart by their locations (an
        /// adapter that does not say where its files are, host names that may name one server, two
        /// users' or workspaces' trees on one server) runs without the marker-file probe that
        /// would tell; `false` by default. Targets whose locations show them to be
        /// one tree, or one inside the other, are refused whatever this says.
        public var assumeNoOverlap: Bool = false
        /// Where the engine logs its decisions at `debug`: the rule that compares files, and each
        /// file sent again with the error that made it so. By default a logger that drops
        /// everything; the providers log their own requests through their configuration's logger.
        public var logger = Logger(label: "strata.transfer", factory: { _ in SwiftLogNoOpLogHandler() })

        /// Creates options.
        public init(
            transfers: Int = 4, checkers: Int = 8, fileRetry: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(500)),
            dryRun: Bool = false, maxDelete: Int? = nil, pageSize: Int? = 1000, pipeCapacity: Int = 4 << 20,
            computeSourceDigests: Bool = true, startFresh: Bool = false,
            maxDeletePercent: Double? = 50, backupDirectory: ItemPath? = nil
        ) {
            self.maxDeletePercent = maxDeletePercent
            self.backupDirectory = backupDirectory
            self.jobStore = nil
            self.startFresh = startFresh
            self.computeSourceDigests = computeSourceDigests
            self.transfers = max(1, transfers)
            self.checkers = max(1, checkers)
            self.fileRetry = fileRetry
            self.dryRun = dryRun
            self.maxDelete = maxDelete
            self.pageSize = pageSize
            self.pipeCapacity = max(64 << 10, pipeCapacity)
        }
    }

    /// How jobs run.
    package var options: Options
    /// Receives every job's events.
    package var observer: TransferObserver?

    /// An engine with `options`, telling `observer` how each job goes.
    public init(options: Options = Options(), observer: TransferObserver? = nil) {
        self.options = options
        self.observer = observer
    }

    /// What a job would do: both sides listed and compared, nothing changed.
    ///
    /// - Throws: `ProviderError`: the source's or a listing's error; `conflict` when the source
    ///   is a folder and the destination a file.
    ///
    /// A sync's plan counts what its deletions take (``TransferPlan/deletions``): every folder it
    /// would delete is listed down to its last file.
    public func plan(_ mode: TransferMode, from source: TransferEndpoint, to destination: TransferEndpoint) async throws -> TransferPlan {
        try await plan(mode, from: source, to: destination, finished: FinishedFiles(), countDeletions: true)
    }

    /// The plan; with `countDeletions`, a sync's ``TransferPlan/deletions`` counted (``DeletionCensus``).
    private func plan(
        _ mode: TransferMode, from source: TransferEndpoint, to destination: TransferEndpoint, finished: FinishedFiles,
        known: [ItemPath: FolderVersion]? = nil, countDeletions: Bool = false
    ) async throws -> TransferPlan {
        let recalled = await recalledNames(source, destination)
        do {
            var planner = TransferPlanner(
                mode: mode, source: source, destination: destination, pageSize: options.pageSize, listings: options.checkers,
                computeSourceDigests: options.computeSourceDigests, finished: finished, digests: options.jobStore, known: known,
                comparison: options.comparison, recalled: recalled)
            planner.limits = options.treeLimits
            options.logger.debug(
                "comparison rule chosen",
                metadata: [
                    "mode": "\(mode)", "rule": "\(planner.rule.description)", "comparison": "\(options.comparison.rawValue)",
                    "source": "\(source.provider.account.kind)", "destination": "\(destination.provider.account.kind)",
                ])
            var plan = try await planner.plan()
            if countDeletions, mode == .sync {
                var census = DeletionCensus(provider: destination.provider, pageSize: options.pageSize, concurrency: options.checkers)
                census.limits = options.treeLimits
                plan.deletions = try await census.count(plan)
            }
            return plan
        } catch {
            throw ProviderError.wrap(error)
        }
    }

    /// Copies the file or the folder's contents at `source` into `destination`: files missing
    /// or different there are sent, nothing is deleted. The folder `destination` is created
    /// (with its parents) when missing; a single file goes into it under its own name when it
    /// is a folder, else to that path. With a ``Options/backupDirectory``, a file about to be
    /// overwritten is moved there first.
    ///
    /// - Returns: what was done; per-file failures are in ``TransferReport/failures``.
    /// - Throws: `ProviderError`, when the job cannot be planned or is cancelled.
    public func copy(from source: TransferEndpoint, to destination: TransferEndpoint) async throws -> TransferReport {
        try await run(.copy, from: source, to: destination)
    }

    /// Makes `destination` like `source`: copies as ``copy(from:to:)`` does, then deletes what the
    /// source does not have, unless a copy failed or the deletions pass ``Options/maxDelete``.
    /// A sync that would delete more of the destination's files than ``Options/maxDeletePercent``
    /// allows changes nothing. With a ``Options/backupDirectory``, what it would delete or overwrite
    /// is moved there instead.
    ///
    /// - Returns: what was done; per-file failures are in ``TransferReport/failures``.
    /// - Throws: `ProviderError`, when the job cannot be planned or is cancelled.
    public func sync(from source: TransferEndpoint, to destination: TransferEndpoint) async throws -> TransferReport {
        try await run(.sync, from: source, to: destination)
    }

    /// Plans and runs a copy or a sync; with a job store, takes up the job's unfinished
    /// run, or starts a new one there.
    ///
    /// - Throws: `ProviderError`, when the job cannot be planned or is cancelled; `invalidArgument`,
    ///   before anything is written, when the two targets are one tree or one is inside the other,
    ///   however they are spelt (remotes, host aliases, users, links, `..`), or when that cannot be
    ///   ruled out (see ``Options/assumeNoOverlap``); before anything is listed, `invalidArgument`
    ///   for a ``Options/backupDirectory`` inside either tree, `unsupported` for one on a
    ///   destination that can neither move nor copy.
    package func run(_ mode: TransferMode, from source: TransferEndpoint, to destination: TransferEndpoint) async throws -> TransferReport {
        if let backup = options.backupDirectory { try await BackupFolder.check(backup, source: source, destination: destination) }
        // Nothing is written or deleted between two spellings of one tree (a dry run does not probe).
        do {
            try await TreeOverlap(source: source, destination: destination).check(
                probe: !options.dryRun, assumeNoOverlap: options.assumeNoOverlap, limits: options.treeLimits)
        } catch {
            throw ProviderError.wrap(error)
        }
        guard let store = options.jobStore else {
            let plan = try await self.plan(mode, from: source, to: destination, finished: FinishedFiles(), countDeletions: true)
            observer?(.planned(plan))
            do {
                return try await TransferRun(plan: plan, source: source, destination: destination, options: options, observer: observer).run()
            } catch {
                throw ProviderError.wrap(error)
            }
        }
        let key = Self.key(mode.rawValue, source, destination)
        let folders = folderRecord(key, store, source, destination)
        let known = options.startFresh ? nil : await folders?.known()
        do {
            if options.dryRun {
                // A dry run changes nothing, the store included: it shows what taking the job up would do.
                let finished = options.startFresh ? nil : try await store.unfinished(key)
                return try await planAndRun(mode, source, destination, finished: finished, known: known, recorder: nil)
            }
            let job = try await store.begin(key, fresh: options.startFresh)
            let recorder = JobRecorder(store: store, job: job.id)
            let report = try await planAndRun(
                mode, source, destination, finished: job.resumed ? job.finished : nil, known: known, recorder: recorder)
            await remember(report.plan.mappedNames, source, destination, in: store)
            if report.succeeded {
                await folders?.record(
                    report.plan, known: known, wrote: !report.plan.changesNothing, destination: destination.provider,
                    concurrency: options.checkers)
                try await store.complete(job.id)
            }
            return report
        } catch {
            throw ProviderError.wrap(error)
        }
    }

    /// Plans with what an unfinished run finished (`finished`, `nil` for a new job), records the
    /// plan, and runs it recording its progress.
    private func planAndRun(
        _ mode: TransferMode, _ source: TransferEndpoint, _ destination: TransferEndpoint, finished: [FinishedFile]?,
        known: [ItemPath: FolderVersion]?, recorder: JobRecorder?
    ) async throws -> TransferReport {
        let plan = try await self.plan(
            mode, from: source, to: destination, finished: FinishedFiles(finished ?? []), known: known, countDeletions: true)
        if finished != nil {
            observer?(.resumed(alreadyDone: plan.actions.filter { $0.kind == .skip && $0.reason == .finishedBefore }.count))
        }
        // Written beside the first transfers rather than before them (a plan of 10,000 files is
        // 10,000 rows): nothing resumed depends on it, only on the done records. Only file copies
        // are recorded, the only rows a resumed run reads: a row holds its whole path, and a chain
        // of 10,000 folders made 10,000 rows of 10 kB on average.
        recorder?.submitPlan(plan.actions.filter { $0.kind == .copyFile }.map { .init($0, state: .planned) })
        observer?(.planned(plan))
        var report = try await TransferRun(
            plan: plan, source: source, destination: destination, options: options, observer: observer, recorder: recorder
        ).run()
        report.resumed = finished != nil
        return report
    }

    /// Compares `destination` with `source` without changing anything: files and folders
    /// missing from the destination, extra there, and files that differ by the
    /// ``SameFileRule`` the two providers allow (the same rule whichever is the source), or by
    /// their content with ``Options/comparison``. The report says how the matching files were
    /// compared (``CheckReport/matchedBy``): those found the same by sizes or times only were not
    /// compared by content. Names are matched as the destination tells them apart
    /// (`NameRules.key(_:)`: byte-exact, or after its normalisation and case folding;
    /// ``CheckReport/names`` says which), so two source files the destination would hold as one
    /// are ``CheckReport/nameConflicts``, never one match.
    ///
    /// With a job store, where both providers' folder etags cover their contents
    /// (`Capabilities.Features.recursiveETags`), the folders found the same are recorded with
    /// their etags, and the next check of the same two folders lists only those that changed since.
    public func check(_ source: TransferEndpoint, against destination: TransferEndpoint) async throws -> CheckReport {
        let folders = options.jobStore.flatMap { folderRecord(Self.key("check", source, destination), $0, source, destination) }
        // A content comparison reads every file, whatever an earlier check recorded.
        let known = options.startFresh || options.comparison == .content ? nil : await folders?.known()
        let plan = try await self.plan(.sync, from: source, to: destination, finished: FinishedFiles(), known: known)
        await folders?.record(plan, known: known, wrote: false, destination: destination.provider, concurrency: options.checkers)
        var report = CheckReport(rule: plan.rule)
        report.names = destination.provider.capabilities.names.identityDescription
        report.matching = plan.filesInUnchangedFolders
        report.unlisted = plan.filesInUnchangedFolders
        report.matchedBy = plan.matchedBy
        report.mappedNames = plan.mappedNames
        report.skipped = plan.skipped
        let replaced = Set(plan.actions.filter { $0.kind == .delete && $0.reason == .kindDiffers }.map(\.relativePath))
        for action in plan.actions {
            switch (action.kind, action.reason) {
            case (.skip, _): report.matching += 1
            case (.delete, .kindDiffers?): report.differing.append(action.relativePath)
            case (.delete, _): report.extra.append(action.relativePath)
            case (.copyFile, .differs?): report.differing.append(action.relativePath)
            case (_, _) where replaced.contains(action.relativePath): break
            default: report.missing.append(action.relativePath)
            }
        }
        report.nameConflicts = plan.nameConflicts
        let conflicts = Set(plan.nameConflicts)
        report.differing += plan.problems.map(\.relativePath).filter { !conflicts.contains($0) }
        return report
    }

    /// The names transfers from `destination` to `source` mapped (the other way), by the item's path
    /// below `source`'s root with `source`'s names: the names to map them back to.
    /// Empty without a job store; a store that cannot be read only loses what the record adds to
    /// the rules.
    private func recalledNames(_ source: TransferEndpoint, _ destination: TransferEndpoint) async -> [ItemPath: String] {
        guard let store = options.jobStore,
            let records = try? await store.recordedNames(
                sourceAccount: destination.provider.account, sourcePath: destination.path, destinationAccount: source.provider.account,
                destinationPath: source.path)
        else { return [:] }
        var recalled: [ItemPath: String] = [:]
        for record in records { recalled[record.destinationPath] = record.sourceName }
        return recalled
    }

    /// Keeps the names a run mapped, for a transfer the other way (a failure to keep them leaves
    /// that one with the rules alone).
    private func remember(_ mappings: [NameMapping], _ source: TransferEndpoint, _ destination: TransferEndpoint, in store: any TransferJobStore) async {
        let records = mappings.compactMap { mapping in
            mapping.destinationPath.map { RecordedName(destinationPath: $0, sourceName: mapping.sourceName) }
        }
        try? await store.remember(
            names: records, sourceAccount: source.provider.account, sourcePath: source.path, destinationAccount: destination.provider.account,
            destinationPath: destination.path)
    }

    /// The job of `mode` from `source` to `destination`.
    private static func key(_ mode: String, _ source: TransferEndpoint, _ destination: TransferEndpoint) -> TransferJobKey {
        TransferJobKey(
            mode: mode, sourceAccount: source.provider.account, sourcePath: source.path,
            destinationAccount: destination.provider.account, destinationPath: destination.path)
    }

    /// The folder etags the job of `key` keeps, where both sides' folder etags are recursive.
    private func folderRecord(
        _ key: TransferJobKey, _ store: any TransferJobStore, _ source: TransferEndpoint, _ destination: TransferEndpoint
    ) -> FolderRecord? {
        let rule = SameFileRule.choose(
            source: source.provider.capabilities, destination: destination.provider.capabilities,
            computingDigests: options.computeSourceDigests, comparison: options.comparison)
        return FolderRecord(key, store: store, source: source, destination: destination, rule: rule)
    }
}
