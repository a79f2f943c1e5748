import Foundation
import ProviderAPI

/// Names tried by the `ConflictPolicy.rename` policy: `a.txt`, `a (1).txt`, `a (2).txt`, …
///
/// ```swift
/// ConflictNames.candidate("q3.pdf", attempt: 2)   // "q3 (2).pdf"
/// ```
package enum ConflictNames {
    /// The name to try at `attempt` (0 is the name itself); the number goes before the extension.
    package static func candidate(_ name: String, attempt: Int) -> String {
        guard attempt > 0 else { return name }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot]) (\(attempt))\(name[dot...])"
        }
        return "\(name) (\(attempt))"
    }

    /// The first candidate over `attempts` that `isTaken` does not hold, or `nil` when every one
    /// is taken: for a name picked against a view of a folder with no write to race (a journal's
    /// cached view); an upload is placed with `UploadPlacement.place`.
    package static func firstFree(_ name: String, attempts: Range<Int>, isTaken: (String) throws -> Bool) rethrows -> String? {
        for attempt in attempts {
            let candidate = candidate(name, attempt: attempt)
            if try !isTaken(candidate) { return candidate }
        }
        return nil
    }
}
