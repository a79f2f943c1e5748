import Foundation

/// Sorting of document lists: `ORDER BY` keys and the `sortBy`/`sortOrder` parameters.
enum SortSpec {
    /// `sortBy=a,b&sortOrder=asc` → keys; a key without a matching `sortOrder`
    /// entry is DESCENDING (only the literal `asc` ascends, spec §2.4).
    static func parse(sortBy: String?, sortOrder: String?) -> [NXQLOrder] {
        let keys = (sortBy ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let orders = (sortOrder ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return keys.enumerated().map { index, key in
            NXQLOrder(property: key, ascending: index < orders.count && orders[index] == "asc")
        }
    }

    static func sort(_ docs: [StoredDocument], by order: [NXQLOrder], repository: Repository) -> [StoredDocument] {
        let keyed = docs.map { doc in (doc, order.map { NXQLValue.of($0.property, doc, in: repository) }) }
        return keyed.sorted { lhs, rhs in
            for (index, key) in order.enumerated() {
                let c = NXQLValue.order(lhs.1[index], rhs.1[index])
                if c != 0 { return key.ascending ? c < 0 : c > 0 }
            }
            return lhs.0.sequence < rhs.0.sequence
        }.map(\.0)
    }

    /// The default `@children` order: `dc:title` ascending, then creation order.
    static func byTitle(_ a: StoredDocument, _ b: StoredDocument) -> Bool {
        a.displayTitle == b.displayTitle ? a.sequence < b.sequence : a.displayTitle < b.displayTitle
    }
}
