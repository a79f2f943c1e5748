import ArgumentParser
import Foundation
import ProviderAPI
import SharedCache

/// `strata pending TARGET` (or `sync-journal`): the offline writes waiting in the sync journal of
/// the target's account, with their conflicts.
struct PendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending", abstract: "List the offline writes waiting in the sync journal, and their conflicts.",
        discussion: """
            Writes made with --offline (or with --queue-offline while the server could not be reached) wait \
            in the sync journal of the cache (--cache DIR, or the default one) until 'strata replay TARGET' \
            sends them. This lists those of the target's account, in the order they will be sent: id, state \
            (pending, replaying, conflict, failed), when the action was taken, and the action. A conflict \
            shows why and both versions (etag, size, modified time): mine as last seen when the action was \
            taken, theirs as the server had it at the replay; settle it with 'strata resolve ID TARGET'. \
            Needs no network. Exit status: 0, also when entries wait.
            """,
        aliases: ["sync-journal"])

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Any URL or saved remote of the account, e.g. webdav://host/dav (the path does not matter).") var target: String

    func run() async throws {
        let cached = try await global.journaled(target, probe: false)
        let entries = try await cached.journal.entries()
        if global.json {
            try Output.json(entries.map(JournalText.EntryJSON.init))
            return
        }
        guard !entries.isEmpty else {
            Output.line("nothing pending")
            return
        }
        for entry in entries { Output.lines(JournalText.lines(entry).joined(separator: "\n")) }
        let counts = Dictionary(grouping: entries, by: \.state).mapValues(\.count)
        var summary = ["\(counts[.pending, default: 0] + counts[.replaying, default: 0]) pending"]
        summary.append("\(counts[.conflict, default: 0]) in conflict")
        summary.append("\(counts[.failed, default: 0]) failed")
        Output.line(summary.joined(separator: ", "))
    }
}
