import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import TransferEngine

/// How `copy` and `sync` print: each action as it ends (or, in a dry run, each planned action;
/// a new folder only when nothing new goes into it, see ``impliedFolders(_:)``),
/// failures on stderr, then a summary with the rule files were compared by, what the deletions
/// take (files, folders, bytes) and what went to the backup directory; `--json`: the report alone.
struct TreeTransferPrinter: Sendable {
    let json: Bool
    let dryRun: Bool
    /// Whether the job has a backup directory: a deletion is a move there (`backed up PATH`).
    var backup = false

    /// `path` below the roots as printed: `a/b`, `.` for the roots themselves.
    static func text(_ path: ItemPath) -> String {
        path.isRoot ? "." : path.segments.joined(separator: "/")
    }

    static func line(for action: TransferAction, dryRun: Bool, backup: Bool = false) -> String? {
        let path = text(action.relativePath) + (action.isFolder && !action.relativePath.isRoot ? "/" : "")
        let verb: String
        switch action.kind {
        case .createFolder: verb = dryRun ? "would create" : "created"
        case .copyFile: verb = dryRun ? "would copy" : "copied"
        case .delete where backup: verb = dryRun ? "would back up" : "backed up"
        case .delete: verb = dryRun ? "would delete" : "deleted"
        case .skip: return nil
        }
        let size = action.kind == .copyFile ? " (\(Output.size(action.size)))" : ""
        return "\(verb) \(path)\(size)"
    }

    /// A name the destination holds otherwise: `renamed a/what?.txt → what？.txt (the destination
    /// refuses the name)`; a change of Unicode normalisation, whose two names print alike, shows
    /// the scalars of both.
    static func line(for mapping: NameMapping) -> String {
        var why = mapping.explanation
        if mapping.reason == .normalized { why += ": \(scalars(mapping.sourceName)) → \(scalars(mapping.destinationName))" }
        return "renamed \(text(mapping.relativePath)) → \(mapping.destinationName) (\(why))"
    }

    /// The non-ASCII scalars of `name` as code points, the rest as it is: `cafe\u{301}` for an NFD `café`.
    static func scalars(_ name: String) -> String {
        name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }

    /// The folders the plan creates that something else it creates or copies goes into: the
    /// lines of what goes in them say they were made, so they get no line of their own (the
    /// summary counts them). A chain of 10,000 new folders printed 10,000 lines of 10 kB on
    /// average; it prints one now, the file at the bottom or the last folder.
    static func impliedFolders(_ plan: TransferPlan) -> Set<ItemPath> {
        var created = Set<ItemPath>()
        for action in plan.actions where action.kind == .createFolder { created.insert(action.relativePath) }
        var implied = Set<ItemPath>()
        for action in plan.actions where (action.kind == .createFolder || action.kind == .copyFile) && !action.relativePath.isRoot {
            // The destination's root keeps its line (`created .`): the one folder named by the user.
            let parent = action.relativePath.parent
            if !parent.isRoot, created.contains(parent) { implied.insert(parent) }
        }
        return implied
    }

    /// The observer of the job: lines as actions end, nothing with `--json`.
    var observe: TransferObserver {
        let json = self.json
        let dryRun = self.dryRun
        let backup = self.backup
        let implied = NIOLockedValueBox(Set<ItemPath>())
        let line: @Sendable (TransferAction, Bool) -> String? = { action, dryRun in
            if action.kind == .createFolder, implied.withLockedValue({ $0.contains(action.relativePath) }) { return nil }
            return Self.line(for: action, dryRun: dryRun, backup: backup)
        }
        return { event in
            guard !json else { return }
            switch event {
            case .planned(let plan):
                implied.withLockedValue { $0 = Self.impliedFolders(plan) }
                for mapping in plan.mappedNames {
                    Output.line(Self.line(for: mapping))
                }
                for skipped in plan.skipped { Output.line("skipped \(skipped.text)") }
                guard dryRun else { return }
                for action in plan.actions { if let text = line(action, true) { Output.line(text) } }
            case .finished(let action, nil):
                if let text = line(action, false) { Output.line(text) }
            case .finished(let action, let error?):
                Output.error("strata: \(Self.text(action.relativePath)): \(Redactor.redact(error.description))")
            case .resumed(let alreadyDone):
                Output.line("resumed an unfinished run: \(alreadyDone) \(alreadyDone == 1 ? "file was" : "files were") already done")
            case .started, .fileProgress, .job:
                return
            }
        }
    }

    /// What a check did not compare, when some matching files were found the same without their
    /// content: how many, by what, and how to compare content; `nil` when every one was compared by content.
    static func contentNote(_ report: CheckReport) -> String? {
        let count = report.contentNotCompared
        guard count > 0 else { return nil }
        var by: [String] = []
        if report.matchedBy.sizeAndModified > 0 { by.append("\(report.matchedBy.sizeAndModified) by size and modified time") }
        if report.matchedBy.size > 0 { by.append("\(report.matchedBy.size) by size alone") }
        let unlisted = count - report.matchedBy.notByContent
        if unlisted > 0 { by.append("\(unlisted) unlisted, below folders unchanged since the last check") }
        return "content not compared for \(count) matching \(count == 1 ? "file" : "files") (\(by.joined(separator: ", "))): "
            + "a file rewritten at the same size with its modified time set back would pass; --download compares content"
    }

    /// The summary, or the JSON report.
    /// `, 2 skipped (links and special files, not transferred)` when the source held any; else nothing.
    static func skippedText(_ plan: TransferPlan) -> String {
        plan.skipped.isEmpty ? "" : ", \(plan.skipped.count) skipped (links and special files, not transferred)"
    }

    func summarize(_ report: TransferReport, limits: SyncLimits?) throws {
        if json {
            try Output.json(report)
            return
        }
        let plan = report.plan
        let deletions = plan.deletions
        for problem in plan.problems { Output.error("strata: \(Self.text(problem.relativePath)): \(problem.message)") }
        if report.deletionShareExceeded {
            Output.error(
                "strata: the sync would delete \(deletions.files) of the destination's \(deletions.destinationFiles) files "
                    + "(\(Self.percent(deletions.percentOfFiles))), more than --max-delete-percent \(Self.percent(limits?.percent ?? 50)): "
                    + "\(report.dryRun ? "it would stop before changing anything" : "nothing was changed"); --force lets it go on")
        }
        if report.deletionLimitExceeded {
            Output.error(
                "strata: the sync would delete \(deletions.items) items (\(Self.describe(deletions))), more than --max-delete \(limits?.maxDelete ?? 0): "
                    + "nothing was deleted")
        } else if report.deletionsSkipped > 0, !report.deletionShareExceeded {
            Output.error("strata: \(report.deletionsSkipped) extra items were not deleted, because a copy failed")
        }
        Output.line("compared by \(plan.rule)")
        let deleting = plan.actions(.delete).count
        if report.dryRun {
            let kept = deleting + plan.actions.filter { $0.kind == .copyFile && $0.reason == .differs }.count
            Output.line(
                "dry run: would copy \(plan.actions(.copyFile).count) files (\(Output.size(plan.bytesToCopy))), "
                    + "create \(plan.actions(.createFolder).count) folders, "
                    + (backup ? "back up \(kept)" : "delete \(deleting)") + (deleting > 0 ? " (\(Self.describe(deletions)) deleted)" : "")
                    + "; \(report.unchanged) unchanged" + Self.skippedText(plan))
        } else {
            let detail = report.deleted > 0 && report.deleted == deleting ? " (\(Self.describe(deletions)))" : ""
            let kept = report.backedUp > 0 ? ", backed up \(report.backedUp) to \(report.backupFolder?.description ?? "the backup directory")" : ""
            Output.line(
                "copied \(report.filesCopied) files (\(Output.size(report.bytesCopied))), created \(report.foldersCreated) folders, "
                    + "deleted \(report.deleted)\(detail)\(kept), \(report.unchanged) unchanged, \(report.failures.count) failed"
                    + Self.skippedText(plan))
        }
    }

    /// `12 files, 3 folders, 1.2 MB`.
    static func describe(_ count: DeletionCount) -> String {
        "\(count.files) \(count.files == 1 ? "file" : "files"), \(count.folders) \(count.folders == 1 ? "folder" : "folders"), "
            + Output.size(count.bytes)
    }

    /// `50 %`, `12.5 %`.
    static func percent(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) %" : "\(rounded) %"
    }
}
