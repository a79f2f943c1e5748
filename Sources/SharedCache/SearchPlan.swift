import Foundation
import GRDB
import ProviderAPI

/// The SQL prefilter of a search: conditions every match of the query
/// satisfies (a superset of the matches), run before `Query.matches` decides.
///
/// Only the conjuncts of a top-level `and` (or a single predicate) are
/// translated; `or`, `not` and `native` leave the prefilter open and the exact
/// check to ``ProviderAPI/Query/matches(_:)``. Text predicates use the FTS5
/// trigram index on folded names (three characters or more) or `instr` on the
/// folded name column (shorter text).
struct SearchPlan {
    private(set) var conditions: [String] = []
    private(set) var arguments: StatementArguments = []

    init(_ query: Query) {
        add(query)
    }

    private mutating func add(_ query: Query) {
        switch query {
        case .and(let queries):
            for query in queries { add(query) }
        case .nameContains(let text), .fullText(let text):
            let folded = TextFolding.fold(text)
            if folded.unicodeScalars.count >= 3 {
                conditions.append(
                    "(item.rowid IN (SELECT rowid FROM item_fts WHERE fname MATCH ?) OR item.rowid IN (SELECT id FROM item_fts_pending))")
                _ = arguments.append(contentsOf: [Self.phrase(folded)])
            } else if !folded.isEmpty {
                conditions.append("instr(item.fname, ?) > 0")
                _ = arguments.append(contentsOf: [folded])
            }
        case .kind(let kind):
            conditions.append("item.kind = ?")
            _ = arguments.append(contentsOf: [kind.rawValue])
        case .size(let min, let max):
            conditions.append("item.size IS NOT NULL")
            if let min {
                conditions.append("item.size >= ?")
                _ = arguments.append(contentsOf: [min])
            }
            if let max {
                conditions.append("item.size <= ?")
                _ = arguments.append(contentsOf: [max])
            }
        case .modified(let after, let before):
            conditions.append("item.modified IS NOT NULL")
            if let after {
                conditions.append("item.modified >= ?")
                _ = arguments.append(contentsOf: [after.timeIntervalSinceReferenceDate])
            }
            if let before {
                conditions.append("item.modified < ?")
                _ = arguments.append(contentsOf: [before.timeIntervalSinceReferenceDate])
            }
        case .under(let folder):
            let bounds = folder.descendantRange
            conditions.append("item.path > ? AND item.path < ?")
            _ = arguments.append(contentsOf: [bounds.lower, bounds.upper])
        case .native:
            conditions.append("0")
        case .mimeType, .or, .not:
            break
        }
    }

    /// `text` as one FTS5 phrase (a substring for the trigram tokenizer).
    static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
