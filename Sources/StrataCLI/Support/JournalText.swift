import Foundation
import ProviderAPI
import SharedCache

/// How `pending`, `replay` and `resolve` print journal entries and conflicts: text lines (escaped by
/// ``Output``) and the `--json` shapes.
enum JournalText {
    /// An entry as `pending --json` prints it.
    struct EntryJSON: Encodable {
        var id: Int64
        var state: String
        /// `createFolder`, `upload`, `delete`, `move` or `copy`.
        var action: String
        var path: String
        var source: String?
        var summary: String
        var recordedAt: Date
        var attempts: Int
        /// The item as last seen when the action was taken (nil for a new item).
        var recorded: Item?
        var recordedDestination: Item?
        /// An upload's bytes: size, sha256, modified time, MIME type.
        var content: JournalContent?
        var conflict: ConflictJSON?
        var lastError: ErrorJSON?

        init(_ entry: JournalEntry) {
            id = entry.id
            state = entry.state.rawValue
            action = entry.action.kind.rawValue
            path = entry.action.path.description
            source = entry.action.source?.description
            summary = entry.action.summary
            recordedAt = entry.recordedAt
            attempts = entry.attempts
            recorded = entry.recorded
            recordedDestination = entry.recordedDestination
            content = entry.action.content
            conflict = entry.state == .conflict ? entry.conflict.map(ConflictJSON.init) : nil
            lastError = entry.lastError.map(ErrorJSON.init)
        }
    }

    /// A conflict: why, and both versions.
    struct ConflictJSON: Encodable {
        var id: Int64
        var reason: String
        var path: String
        var summary: String
        var actionTime: Date
        var detectedAt: Date
        /// Mine: the item as last seen when the action was taken.
        var mine: Item?
        /// The bytes an upload would have sent.
        var mineContent: JournalContent?
        /// Theirs: the server's item when the replay checked it (nil when there is none).
        var theirs: Item?

        init(_ conflict: JournalConflict) {
            id = conflict.entryID
            reason = conflict.reason.rawValue
            path = conflict.path.description
            summary = conflict.action.summary
            actionTime = conflict.actionTime
            detectedAt = conflict.detectedAt
            mine = conflict.recorded
            mineContent = conflict.mineContent
            theirs = conflict.server
        }
    }

    /// A failure, secrets masked.
    struct ErrorJSON: Encodable {
        var code: String
        var message: String

        init(_ error: ProviderError) {
            code = error.code.description
            message = Redactor.redact(error.description)
        }
    }

    /// What one replay did, as `replay --json` prints it.
    struct ReplayJSON: Encodable {
        var replayed: [Int64]
        var conflicts: [ConflictJSON]
        var failed: [FailureJSON]
        var heldBack: [Int64]
        var stoppedOffline: Bool
        var remaining: Int

        struct FailureJSON: Encodable {
            var id: Int64
            var error: ErrorJSON
        }

        init(_ report: JournalReplayReport) {
            replayed = report.replayed
            conflicts = report.conflicts.map(ConflictJSON.init)
            failed = report.failed.sorted { $0.key < $1.key }.map { FailureJSON(id: $0.key, error: ErrorJSON($0.value)) }
            heldBack = report.heldBack
            stoppedOffline = report.stoppedOffline
            remaining = report.remaining
        }
    }

    /// The lines of one entry in `pending`: `#4  conflict  2026-…  upload /a.txt (5 bytes)`, then
    /// the conflict's versions or the last error, indented.
    static func lines(_ entry: JournalEntry) -> [String] {
        var lines = ["#\(entry.id)  \(entry.state.rawValue.padding(8))  \(Output.date(entry.recordedAt))  \(entry.action.summary)"]
        if entry.state == .conflict, let conflict = entry.conflict {
            lines += details(conflict)
        } else if let error = entry.lastError {
            lines.append("    last error: \(Redactor.redact(error.description))")
        }
        return lines
    }

    /// Why a conflict stopped the action, and both versions.
    static func details(_ conflict: JournalConflict) -> [String] {
        var lines = ["    \(reason(conflict.reason)): \(conflict.path)"]
        var mine = "    mine:   \(version(conflict.recorded))"
        if let content = conflict.mineContent {
            mine += "; new content \(Output.size(content.size)), sha256 \(content.sha256.prefix(12))…"
        }
        lines.append(mine)
        lines.append("    theirs: \(version(conflict.server))")
        return lines
    }

    /// A conflict's reason in words.
    static func reason(_ reason: JournalConflict.Reason) -> String {
        switch reason {
        case .changedOnServer: return "changed on the server"
        case .deletedOnServer: return "deleted on the server"
        case .targetFolderGone: return "target folder gone from the server"
        case .targetExists: return "something new is at the destination"
        }
    }

    /// One version of an item: `file, etag "x", 5 B, modified 2026-…`, or `none`.
    static func version(_ item: Item?) -> String {
        guard let item else { return "none" }
        var parts = [item.kind.rawValue]
        if let etag = item.etag { parts.append("etag \(etag)") }
        if !item.isFolder { parts.append(Output.size(item.size)) }
        parts.append("modified \(Output.date(item.modified))")
        return parts.joined(separator: ", ")
    }
}

extension String {
    /// The text padded with spaces on the right to `width`.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
