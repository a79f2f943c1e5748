import ArgumentParser
import Foundation
import ProviderAPI
import ProviderConformance

extension ConformanceCommand {
    /// One case as `--list` prints it.
    struct ListedCase: Encodable, Equatable {
        /// `group.case`.
        var name: String
        var group: String
        /// The `Capabilities.Features` the provider must declare, by their names in code (`search`).
        var requires: [String]
        /// Whether the case runs only with `--large`.
        var largeFiles: Bool
        /// What the case proves.
        var summary: String

        init(_ conformanceCase: ConformanceCase) {
            name = conformanceCase.name
            group = conformanceCase.group
            requires = Capabilities.Features.named.filter { conformanceCase.requires.contains($0.feature) }.map(\.name)
            largeFiles = conformanceCase.needsLargeFiles
            summary = conformanceCase.summary
        }
    }

    /// The cases `--list` prints: every case of the suite, or those `--case` names (a case or a group).
    static func listed(filter: [String]) -> [ListedCase] {
        let wanted = Set(filter)
        return suiteCases.filter { wanted.isEmpty || wanted.contains($0.name) || wanted.contains($0.group) }.map(ListedCase.init)
    }

    /// `--list`: the cases in the order they run, grouped, as text or (`--json`) a JSON array.
    func listCases() throws {
        let listed = Self.listed(filter: cases)
        let known = Set(Self.suiteCases.flatMap { [$0.name, $0.group] })
        for name in cases where !known.contains(name) { Output.error("warning: no case or group named \(name)") }
        if global.json { return try Output.json(listed) }
        Output.lines(Self.listText(listed))
    }

    /// The text form: a heading per group, then per case its name, its needs, and its summary.
    static func listText(_ listed: [ListedCase]) -> String {
        var lines: [String] = []
        var group: String?
        for entry in listed {
            if entry.group != group {
                if group != nil { lines.append("") }
                group = entry.group
                lines.append("\(entry.group):")
            }
            var needs = entry.requires.map { "." + $0 }
            if entry.largeFiles { needs.append("--large") }
            lines.append("  \(entry.name)" + (needs.isEmpty ? "" : "  [needs \(needs.joined(separator: ", "))]"))
            lines.append("      \(entry.summary)")
        }
        lines.append("")
        lines.append("\(listed.count) cases in \(Set(listed.map(\.group)).count) groups")
        return lines.joined(separator: "\n")
    }
}
