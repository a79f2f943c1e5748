import Foundation
import ProviderAPI
import TransferEngine

/// How `copy` and `sync` print: each action as it ends (or, in a dry run, each planned action),
/// failures on stderr, then a summary with the rule files were compared by; `--json`: the report alone.
struct TreeTransferPrinter: Sendable {
    let json: Bool
    let dryRun: Bool

    /// `path` below the roots as printed: `a/b`, `.` for the roots themselves.
    static func text(_ path: ItemPath) -> String {
        path.isRoot ? "." : path.segments.joined(separator: "/")
    }

    static func line(for action: TransferAction, dryRun: Bool) -> String? {
        let path = text(action.relativePath) + (action.isFolder && !action.relativePath.isRoot ? "/" : "")
        let verb: String
        switch action.kind {
        case .createFolder: verb = dryRun ? "would create" : "created"
        case .copyFile: verb = dryRun ? "would copy" : "copied"
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

    /// The observer of the job: lines as actions end, nothing with `--json`.
    var observe: TransferObserver {
        let json = self.json
        let dryRun = self.dryRun
        return { event in
            guard !json else { return }
            switch event {
            case .planned(let plan):
                for mapping in plan.mappedNames {
                    Output.line(Self.line(for: mapping))
                }
                guard dryRun else { return }
                for action in plan.actions { if let line = Self.line(for: action, dryRun: true) { Output.line(line) } }
            case .finished(let action, nil):
                if let line = Self.line(for: action, dryRun: false) { Output.line(line) }
            case .finished(let action, let error?):
                Output.error("strata: \(Self.text(action.relativePath)): \(Redactor.redact(error.description))")
            case .resumed(let alreadyDone):
                Output.line("resumed an unfinished run: \(alreadyDone) \(alreadyDone == 1 ? "file was" : "files were") already done")
            case .started, .fileProgress, .job:
                return
            }
        }
    }

    /// The summary, or the JSON report.
    func summarize(_ report: TransferReport, maxDelete: Int?) throws {
        if json {
            try Output.json(report)
            return
        }
        for problem in report.plan.problems { Output.error("strata: \(Self.text(problem.relativePath)): \(problem.message)") }
        if report.deletionLimitExceeded {
            let count = report.plan.actions(.delete).count
            Output.error("strata: the sync would delete \(count) items, more than --max-delete \(maxDelete ?? 0): nothing was deleted")
        } else if report.deletionsSkipped > 0 {
            Output.error("strata: \(report.deletionsSkipped) extra items were not deleted, because a copy failed")
        }
        Output.line("compared by \(report.plan.rule)")
        if report.dryRun {
            let plan = report.plan
            Output.line(
                "dry run: would copy \(plan.actions(.copyFile).count) files (\(Output.size(plan.bytesToCopy))), "
                    + "create \(plan.actions(.createFolder).count) folders, delete \(plan.actions(.delete).count); "
                    + "\(report.unchanged) unchanged")
        } else {
            Output.line(
                "copied \(report.filesCopied) files (\(Output.size(report.bytesCopied))), created \(report.foldersCreated) folders, "
                    + "deleted \(report.deleted), \(report.unchanged) unchanged, \(report.failures.count) failed")
        }
    }
}
