import ArgumentParser
import Foundation
import ProviderAPI

/// One adapter as `strata adapters --json` prints it.
struct AdapterSummary: Encodable, Equatable {
    /// The adapter's kind, as saved remotes name it.
    var kind: String
    /// Each URL scheme the adapter handles, mapped to the scheme its providers are configured with.
    var schemes: [String: String]
    /// Whether the adapter is one of `strata`'s own rather than added by the command line's maker.
    var builtIn: Bool
}

struct AdaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters",
        abstract: "List the adapters this strata knows, with the URL schemes that pick each.",
        discussion: """
            A build of strata made with StrataCommandLine(extraFactories:) lists its added adapters \
            here too; their kinds can be used in saved remotes and their schemes in targets.
            """)

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let summaries = Self.summaries(of: StrataCommandLine.current)
        if json {
            try Output.json(summaries)
            return
        }
        for summary in summaries {
            let schemes = summary.schemes.sorted { $0.key < $1.key }.map { "\($0.key)→\($0.value)" }.joined(separator: " ")
            let fields = [summary.kind, schemes] + (summary.builtIn ? [] : ["(added)"])
            Output.rawLine(fields.map(TerminalText.escape).joined(separator: "\t"))
        }
    }

    /// The registered adapters of `commandLine`, by kind; an added adapter that replaced a built-in one counts as added.
    static func summaries(of commandLine: StrataCommandLine) -> [AdapterSummary] {
        let registry = commandLine.registry()
        let added = Set(commandLine.extraFactories.map(\.kind))
        return registry.kinds.compactMap { kind in
            registry.factory(kind: kind).map { AdapterSummary(kind: kind, schemes: $0.schemes, builtIn: !added.contains(kind)) }
        }
    }
}
