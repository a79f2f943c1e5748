import Foundation
import ProviderAPI

/// Matching as the in-memory server does it: like ``Query/matches(_:)``, but full text
/// also searches file contents.
extension Query {
    /// Whether `item`, whose content is `content`, matches; full text also searches contents up to 1 MiB.
    func matches(_ item: Item, content: [UInt8]) -> Bool {
        switch self {
        case .fullText(let text):
            if matches(item) { return true }
            guard item.kind == .file, content.count <= 1 << 20 else { return false }
            return String(decoding: content, as: UTF8.self).range(of: text, options: [.caseInsensitive]) != nil
        case .and(let queries): return queries.allSatisfy { $0.matches(item, content: content) }
        case .or(let queries): return queries.contains { $0.matches(item, content: content) }
        case .not(let query): return !query.matches(item, content: content)
        default: return matches(item)
        }
    }
}
