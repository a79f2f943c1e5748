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
}
