import ArgumentParser
import Foundation
import ProviderAPI
import SharedCache

/// `strata replay TARGET`: sends the sync journal's waiting writes to the server, in order.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Send the offline writes waiting in the sync journal to the server.",
        discussion: """
            Each entry of the target's account is checked against the server before it is sent: when the \
            server's item is still the version seen when the action was taken, the action is done \
            (uploads with If-Match where the server honours it); when it changed, or the folder written \
            into is gone, nothing is changed and the entry waits as a conflict ('strata resolve ID TARGET'). \
            Quota, disk and server errors keep the entry for the next replay. One line per entry as it is \
            done (replayed, conflict, failed), then a summary; --json prints one report. Exit status: 0 \
            when the journal is empty afterwards, 1 when anything stays pending, failed or in conflict.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Any URL or saved remote of the account, e.g. webdav://host/dav (the path does not matter).") var target: String

    func run() async throws {
        guard !global.offline else { throw ValidationError("replay needs the network; drop --offline") }
        let cached = try await global.journaled(target, probe: true)
        let report = try await ReplayPrinter(json: global.json).replay(cached)
        if global.json {
            try Output.json(JournalText.ReplayJSON(report))
        } else {
            let waiting = try await cached.journal.entries()
            for id in report.heldBack {
                if let entry = waiting.first(where: { $0.id == id }) {
                    Output.line("held back #\(id) \(entry.action.summary): an earlier entry on its path waits")
                }
            }
            if report.stoppedOffline { Output.line("stopped: the server could not be reached") }
            Output.line(
                "replayed \(report.replayed.count), \(report.conflicts.count) in conflict, \(report.failed.count) failed, "
                    + "\(report.heldBack.count) held back; \(report.remaining) waiting")
        }
        if report.remaining > 0 { throw ExitCode(1) }
    }
}

/// Prints the journal's events of one replay as they happen (`replayed #3 …`, `conflict #4 …`, `failed #5 …`).
struct ReplayPrinter {
    let json: Bool

    private enum Relay: Sendable {
        case event(JournalEvent)
        /// The replay returned, having published this many entry outcomes.
        case done(Int)
    }

    /// Replays `cached`'s journal, printing each entry's outcome from ``SyncJournal/events()``.
    func replay(_ cached: CachedProvider) async throws -> JournalReplayReport {
        let events = cached.journal.events()
        let (relay, relayed) = AsyncStream<Relay>.makeStream(bufferingPolicy: .unbounded)
        let forward = Task {
            for await event in events { relayed.yield(.event(event)) }
        }
        let json = self.json
        let printer = Task {
            var seen = 0
            var expected: Int?
            for await item in relay {
                switch item {
                case .event(let event):
                    guard let lines = Self.lines(event) else { continue }
                    seen += 1
                    if !json { Output.lines(lines.joined(separator: "\n")) }
                case .done(let count):
                    expected = count
                }
                if let expected, seen >= expected { break }
            }
        }
        defer { forward.cancel() }
        let report: JournalReplayReport
        do {
            report = try await cached.replayJournal()
        } catch {
            relayed.finish()
            await printer.value
            throw error
        }
        // Every outcome was published before the replay returned: the printer stops after the last one
        // (or, should one never come, when the relay is closed a little later).
        relayed.yield(.done(report.replayed.count + report.conflicts.count + report.failed.count))
        let closer = Task {
            try? await Task.sleep(for: .seconds(5))
            relayed.finish()
        }
        await printer.value
        closer.cancel()
        return report
    }

    /// The lines of an entry's outcome; nil for the events that are none (recorded, resolved).
    static func lines(_ event: JournalEvent) -> [String]? {
        switch event {
        case .replayed(let entry, _):
            return ["replayed #\(entry.id) \(entry.action.summary)"]
        case .conflict(let conflict):
            return ["conflict #\(conflict.entryID) \(conflict.action.summary)"] + JournalText.details(conflict)
        case .failed(let entry, let error):
            return ["failed #\(entry.id) \(entry.action.summary): \(Redactor.redact(error.description))"]
        case .recorded, .resolved:
            return nil
        }
    }
}
