import Foundation
import ProviderAPI

/// A ``Query`` as it travels to the in-memory server, which evaluates it with full text.
indirect enum WireQuery: Codable, Sendable {
    case nameContains(String)
    case fullText(String)
    case kind(ItemKind)
    case mimeType(String)
    case modified(after: Date?, before: Date?)
    case size(min: Int64?, max: Int64?)
    case under(ItemPath)
    case and([WireQuery])
    case or([WireQuery])
    case not(WireQuery)
    case native(String)

    init(_ query: Query) {
        switch query {
        case .nameContains(let text): self = .nameContains(text)
        case .fullText(let text): self = .fullText(text)
        case .kind(let kind): self = .kind(kind)
        case .mimeType(let type): self = .mimeType(type)
        case .modified(let after, let before): self = .modified(after: after, before: before)
        case .size(let min, let max): self = .size(min: min, max: max)
        case .under(let path): self = .under(path)
        case .and(let queries): self = .and(queries.map(WireQuery.init))
        case .or(let queries): self = .or(queries.map(WireQuery.init))
        case .not(let query): self = .not(WireQuery(query))
        case .native(let text): self = .native(text)
        }
    }

    var query: Query {
        switch self {
        case .nameContains(let text): return .nameContains(text)
        case .fullText(let text): return .fullText(text)
        case .kind(let kind): return .kind(kind)
        case .mimeType(let type): return .mimeType(type)
        case .modified(let after, let before): return .modified(after: after, before: before)
        case .size(let min, let max): return .size(min: min, max: max)
        case .under(let path): return .under(path)
        case .and(let queries): return .and(queries.map(\.query))
        case .or(let queries): return .or(queries.map(\.query))
        case .not(let query): return .not(query.query)
        case .native(let text): return .native(text)
        }
    }

    /// Whether `item`, whose content is `content`, matches; full text also searches contents up to 1 MiB.
    func matches(_ item: Item, content: [UInt8]) -> Bool {
        switch self {
        case .fullText(let text):
            if query.matches(item) { return true }
            guard item.kind == .file, content.count <= 1 << 20 else { return false }
            return String(decoding: content, as: UTF8.self).range(of: text, options: [.caseInsensitive]) != nil
        case .and(let queries): return queries.allSatisfy { $0.matches(item, content: content) }
        case .or(let queries): return queries.contains { $0.matches(item, content: content) }
        case .not(let query): return !query.matches(item, content: content)
        default: return query.matches(item)
        }
    }
}
