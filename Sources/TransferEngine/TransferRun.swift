import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

/// Carries out a ``TransferPlan``, in four steps: deletions of items in the way (sync), folders
/// (parents first, the folders of one depth several at once), files (several at once), and the extras' deletions
/// (sync, only when every copy succeeded and the plan keeps within the deletion limit).
///
/// A sync whose plan deletes too large a share of the destination's files runs no step at all.
/// With a backup directory, each deletion is a move into this run's backup folder, and each file
/// about to be overwritten is moved there before its copy.
struct TransferRun: Sendable {
    let plan: TransferPlan
    let source: TransferEndpoint
    let destination: TransferEndpoint
    let options: TransferManager.Options
    let observer: TransferObserver?
    /// Where the job's progress is kept, when it has a job store: each file copied is recorded
    /// before it is reported finished (what a resumed run reads; folders made and items deleted
    /// are found by listing again).
    var recorder: JobRecorder? = nil

    func run() async throws -> TransferReport {
        var report = TransferReport(plan: plan, dryRun: options.dryRun)
        report.failures = plan.problems
        report.alreadyDone = plan.actions.filter { $0.kind == .skip && $0.reason == .finishedBefore }.count
        report.unchanged = plan.actions(.skip).count - report.alreadyDone + plan.filesInUnchangedFolders
        let deletions = plan.actions(.delete)
        // Every file and folder the deletions take, those inside the deleted folders included.
        let doomed = max(plan.deletions.items, deletions.count)
        if let limit = options.maxDelete, doomed > limit { report.deletionLimitExceeded = true }
        if plan.mode == .sync, let percent = options.maxDeletePercent, plan.deletions.files > 0,
            plan.deletions.percentOfFiles > percent
        {
            // Stopped before any change: neither the copies nor the deletions are done.
            report.deletionShareExceeded = true
            report.deletionsSkipped = deletions.count
            await recorder?.flush()
            return report
        }
        if options.dryRun { return report }
        let overwrites = plan.actions.contains { $0.kind == .copyFile && $0.reason == .differs }
        let backup: BackupFolder? =
            if let directory = options.backupDirectory, overwrites || (!deletions.isEmpty && !report.deletionLimitExceeded) {
                // Made before any change: a backup that cannot be made stops the job here.
                try await BackupFolder.make(directory, destination: destination, started: Date())
            } else {
                nil
            }
        report.backupFolder = backup?.folder
        // Items moved to the backup, counted from the lanes.
        let backedUp = NIOLockedValueBox(0)

        let work = plan.actions.filter { $0.kind != .skip }
        let counter = JobCounter(total: JobProgress(actionsTotal: work.count, bytesTotal: plan.bytesToCopy), observer: observer)
        // Destination paths that could not be made ready: nothing is written at or below them.
        var blocked: [ItemPath] = []
        func isBlocked(_ path: ItemPath) -> Bool { blocked.contains { path.isDescendant(of: $0) } }
        func fail(_ action: TransferAction, _ error: ProviderError) {
            report.failures.append(TransferFailure(relativePath: action.relativePath, error: error))
            observer?(.finished(action, error))
            counter.finishAction()
        }
        func done(_ action: TransferAction) {
            observer?(.finished(action, nil))
            counter.finishAction()
        }

        // 1. Items in the way of a folder or a file of the source.
        for action in deletions where action.reason == .kindDiffers {
            try checkCancellation()
            if report.deletionLimitExceeded {
                report.deletionsSkipped += 1
                blocked.append(action.destination)
                fail(action, ProviderError(.conflict, "\(action.relativePath) would be deleted, past the deletion limit of \(options.maxDelete ?? 0)"))
                continue
            }
            observer?(.started(action, attempt: 1))
            do {
                if let backup {
                    if try await backup.keep(action.destination) { backedUp.withLockedValue { $0 += 1 } }
                } else {
                    try await destination.provider.delete(action.destination)
                    report.deleted += 1
                }
                done(action)
            } catch {
                blocked.append(action.destination)
                fail(action, ProviderError.wrap(error))
            }
        }

        // 2. Folders, parents first: the folders of one depth several at once.
        let folders = Dictionary(grouping: plan.actions(.createFolder), by: \.destination.depth)
        for depth in folders.keys.sorted() {
            try checkCancellation()
            var ready: [TransferAction] = []
            for action in folders[depth] ?? [] {
                if isBlocked(action.destination) {
                    blocked.append(action.destination)
                    fail(action, ProviderError(.conflict, "\(action.relativePath) cannot be made: the item in its place or above it is not ready"))
                } else {
                    ready.append(action)
                }
            }
            let made = await Self.concurrently(ready, limit: options.transfers, unstarted: ProviderError(.cancelled, "cancelled")) {
                action -> ProviderError? in
                observer?(.started(action, attempt: 1))
                do {
                    try await makeFolder(action)
                    return nil
                } catch {
                    return ProviderError.wrap(error)
                }
            }
            for (action, error) in zip(ready, made) {
                if let error {
                    blocked.append(action.destination)
                    fail(action, error)
                } else {
                    report.foldersCreated += 1
                    done(action)
                }
            }
        }

        // 3. Files, `transfers` at once.
        var copies: [TransferAction] = []
        for action in plan.actions(.copyFile) {
            if isBlocked(action.destination) {
                fail(action, ProviderError(.conflict, "\(action.relativePath) cannot be written: the folder or item in its place is not ready"))
            } else {
                copies.append(action)
            }
        }
        try checkCancellation()
        let copier = FileCopier(source: source, destination: destination, options: options, observer: observer, counter: counter)
        let recorder = self.recorder
        let results = await Self.concurrently(copies, limit: options.transfers, unstarted: ProviderError(.cancelled, "cancelled")) {
            action -> ProviderError? in
            if let backup, action.reason == .differs {
                // The file it replaces goes to the backup first; a file that cannot be kept is not overwritten.
                do {
                    if try await backup.keep(action.destination) { backedUp.withLockedValue { $0 += 1 } }
                } catch {
                    let failure = ProviderError.wrap(error)
                    let reason = failure.message ?? failure.code.description
                    let error = ProviderError(
                        failure.code, "\(action.relativePath) was not overwritten: it could not be moved to the backup folder (\(reason))")
                    observer?(.finished(action, error))
                    counter.finishAction()
                    return error
                }
            }
            let result = await copier.send(action)
            let error: ProviderError? = if case .failure(let failure) = result { failure } else { nil }
            let report: @Sendable () -> Void = {
                observer?(.finished(action, error))
                counter.finishAction()
            }
            // Known to the store before it is reported: a crash after the report never sends it again.
            // The lane goes on with its next file while the record is written (with those of the
            // files the other lanes finish meanwhile, in one transaction).
            switch result {
            case .success(let uploaded):
                if let recorder { recorder.submit(.init(action, state: .done, uploaded: uploaded), then: report) } else { report() }
            case .failure(let failure):
                if let recorder, failure.code != .cancelled { recorder.submit(.init(action, state: .failed), then: report) } else { report() }
            }
            return error
        }
        // Every file's record written, and every file reported.
        await recorder?.flush()
        for (action, error) in zip(copies, results) {
            if let error {
                report.failures.append(TransferFailure(relativePath: action.relativePath, error: error))
            } else {
                report.filesCopied += 1
                report.bytesCopied += action.size ?? 0
            }
        }
        try checkCancellation()

        // 4. Extras, once everything else succeeded.
        let extras = deletions.filter { $0.reason == .extra }
        if report.deletionLimitExceeded || !report.failures.isEmpty {
            report.deletionsSkipped += extras.count
            report.backedUp = backedUp.withLockedValue { $0 }
            return report
        }
        let provider = destination.provider
        let deleted = await Self.concurrently(extras, limit: options.transfers, unstarted: ProviderError(.cancelled, "cancelled")) {
            action -> ProviderError? in
            observer?(.started(action, attempt: 1))
            var failure: ProviderError?
            do {
                if let backup {
                    if try await backup.keep(action.destination) { backedUp.withLockedValue { $0 += 1 } }
                } else {
                    try await provider.delete(action.destination)
                }
            } catch {
                let error = ProviderError.wrap(error)
                // Gone already is what a deletion wants.
                if error.code != .notFound { failure = error }
            }
            observer?(.finished(action, failure))
            counter.finishAction()
            return failure
        }
        for (action, error) in zip(extras, deleted) {
            if let error {
                report.failures.append(TransferFailure(relativePath: action.relativePath, error: error))
            } else if backup == nil {
                report.deleted += 1
            }
        }
        report.backedUp = backedUp.withLockedValue { $0 }
        try checkCancellation()
        return report
    }

    private func checkCancellation() throws {
        if Task.isCancelled { throw ProviderError(.cancelled, "the transfer was cancelled") }
    }

    /// Creates the folder of `action`; the destination's root folder with any missing parents.
    /// A folder that exists already (made meanwhile) is fine; a file there is not.
    private func makeFolder(_ action: TransferAction) async throws {
        let provider = destination.provider
        let path = action.destination
        if action.relativePath.isRoot {
            // The planner found the root missing a moment ago: make it at once, and look at its
            // parents only when the server says one is missing (not two looks before every copy).
            try await Self.makeFolder(path, on: provider)
            return
        }
        do {
            _ = try await provider.createFolder(named: path.name, in: path.parent)
        } catch let error as ProviderError where error.code == .alreadyExists {
            guard try await provider.item(at: path).isFolder else { throw error }
        }
    }

    /// Creates `path` and its missing parents.
    static func ensureFolder(_ path: ItemPath, on provider: any StorageProvider) async throws {
        if path.isRoot { return }
        if let existing = try await provider.itemIfExists(at: path) {
            guard existing.isFolder else { throw ProviderError(.conflict, "\(path) is a file") }
            return
        }
        try await ensureFolder(path.parent, on: provider)
        do {
            _ = try await provider.createFolder(named: path.name, in: path.parent)
        } catch let error as ProviderError where error.code == .alreadyExists {
            return
        }
    }

    /// Creates `path`, expected to be missing, and its missing parents: `createFolder` first, the
    /// parents only when it answers that one is missing. A folder made meanwhile is fine; a file is
    /// a conflict.
    static func makeFolder(_ path: ItemPath, on provider: any StorageProvider) async throws {
        if path.isRoot { return }
        // Whether the folder was made (`false`: something is at the name already).
        func create() async throws -> Bool {
            do {
                _ = try await provider.createFolder(named: path.name, in: path.parent)
                return true
            } catch let error as ProviderError where error.code == .alreadyExists {
                return false
            }
        }
        let made: Bool
        do {
            made = try await create()
        } catch let error as ProviderError where error.code == .notFound && !path.parent.isRoot {
            try await ensureFolder(path.parent, on: provider)
            made = try await create()
        }
        if !made {
            guard try await provider.item(at: path).isFolder else { throw ProviderError(.conflict, "\(path) is a file") }
        }
    }

    /// `body` applied to every element, at most `limit` at once; the results in the elements' order,
    /// `unstarted` for the elements not started because the task was cancelled.
    static func concurrently<Element: Sendable, Result: Sendable>(
        _ elements: [Element], limit: Int, unstarted: Result, _ body: @escaping @Sendable (Element) async -> Result
    ) async -> [Result] {
        guard !elements.isEmpty else { return [] }
        return await withTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: elements.count)
            var next = 0
            while next < min(max(limit, 1), elements.count) {
                let (index, element) = (next, elements[next])
                group.addTask { (index, await body(element)) }
                next += 1
            }
            while let finished = await group.next() {
                results[finished.0] = finished.1
                if next < elements.count, !Task.isCancelled {
                    let (index, element) = (next, elements[next])
                    group.addTask { (index, await body(element)) }
                    next += 1
                }
            }
            return results.map { $0 ?? unstarted }
        }
    }
}
