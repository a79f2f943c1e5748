import ArgumentParser
import Foundation
import ProviderAPI
import SharedCache

/// `strata resolve ID TARGET --keep-mine|--take-theirs|--retry|--drop`: settles a journal entry in
/// conflict (or failed).
struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve", abstract: "Settle a conflict (or a failed entry) of the sync journal.",
        discussion: """
            ID is the entry's number as 'strata pending' and 'strata replay' print it; TARGET names its \
            account, as for 'pending'. --keep-mine does the action under a free name beside the server's \
            item ('name (1).ext'), making a missing folder again, and prints the name; a delete of an item \
            changed on the server deletes it anyway. --take-theirs drops the action and refreshes the \
            cached view from the server. --retry checks the server again and sends the action if it now \
            matches. --drop forgets the action, leaving the server as it is (needs no network). \
            Exit status: 0 when the entry is settled, 1 when a retry finds it still in conflict or acting fails.
            """)

    /// How to settle the entry.
    enum Resolution: String, EnumerableFlag {
        case keepMine, takeTheirs, retry, drop

        var journal: JournalResolution {
            switch self {
            case .keepMine: return .keepMine
            case .takeTheirs: return .takeTheirs
            case .retry: return .retry
            case .drop: return .drop
            }
        }

        static func help(for value: Resolution) -> ArgumentHelp? {
            switch value {
            case .keepMine: return "Keep mine under a new name beside the server's item."
            case .takeTheirs: return "Take the server's version: drop the action."
            case .retry: return "Check the server again and send the action if it now matches."
            case .drop: return "Forget the action, changing nothing on the server."
            }
        }
    }

    /// What `resolve --json` prints.
    struct Result: Encodable {
        var id: Int64
        var resolution: String
        /// `resolved`, or the entry's state when it stays (a retry still in conflict).
        var state: String
        /// Where `--keep-mine` put mine, when it made something new.
        var kept: String?
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The journal entry's id.") var id: Int64
    @Argument(help: "Any URL or saved remote of the account, e.g. webdav://host/dav.") var target: String
    @Flag var resolution: Resolution

    func run() async throws {
        guard !global.offline || resolution == .drop else { throw ValidationError("only --drop works offline; drop --offline") }
        let cached = try await global.journaled(target, probe: resolution != .drop)
        guard let entry = try await cached.journal.entry(id) else {
            throw ProviderError(.notFound, "no journal entry \(id) for this account ('strata pending TARGET' lists them)")
        }
        // Where keep-mine may put a new item: the folder of the action's path, read before and after.
        let folder = entry.action.path.parent
        let before = resolution == .keepMine ? await Self.names(in: folder, on: cached.base) : []
        let state = try await cached.resolveJournal(id, resolution.journal)
        var kept: ItemPath?
        if resolution == .keepMine, state == nil, entry.action.kind != .delete {
            kept = await Self.names(in: folder, on: cached.base).subtracting(before).min().flatMap { try? folder.appending($0.description) }
        }
        let result = Result(id: id, resolution: resolution.journal.rawValue, state: state?.rawValue ?? "resolved", kept: kept?.description)
        if global.json {
            try Output.json(result)
        } else if let state {
            Output.line("#\(id) \(entry.action.summary): still \(state.rawValue)")
        } else {
            Output.line("resolved #\(id) \(entry.action.summary): \(Self.words(resolution))" + (kept.map { " as \($0)" } ?? ""))
        }
        if state != nil { throw ExitCode(1) }
    }

    static func words(_ resolution: Resolution) -> String {
        switch resolution {
        case .keepMine: return "kept mine"
        case .takeTheirs: return "took theirs"
        case .retry: return "replayed"
        case .drop: return "dropped"
        }
    }

    /// The names in `folder` on the server, by their exact bytes (a kept copy may differ from the
    /// server's file in Unicode normalisation alone); empty when it cannot be listed (it may be
    /// made by the resolution).
    static func names(in folder: ItemPath, on provider: any StorageProvider) async -> Set<NameKey> {
        guard let items = try? await provider.listAll(folder) else { return [] }
        return Set(items.map { NameKey(exact: $0.name) })
    }
}
