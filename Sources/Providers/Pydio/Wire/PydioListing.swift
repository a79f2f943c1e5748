import Foundation
import ProviderAPI
import HTTPProviderKit

/// An `ls` answer: the listed folder, its children, and the page it is when the folder is paginated.
public struct PydioListing: Sendable, Hashable {
    /// The listed folder (the root `<tree>`); `nil` on Pydio 5/6 stat-like answers without one.
    public var folder: PydioNode?
    /// The children on this page.
    public var children: [PydioNode]
    /// The page (1-based) and the number of pages, when the server paginates the folder.
    public var page: (current: Int, total: Int, count: Int)?
    /// The `count` of the `<pagination>`, the children of the whole folder, when the server sent
    /// a whole number of at least 0 (``page``'s count stands in with this page's entries otherwise).
    public var declaredCount: Int?

    public static func == (lhs: PydioListing, rhs: PydioListing) -> Bool {
        lhs.folder == rhs.folder && lhs.children == rhs.children && lhs.page?.current == rhs.page?.current
            && lhs.page?.total == rhs.page?.total && lhs.page?.count == rhs.page?.count
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(folder)
        hasher.combine(children)
    }

    /// Reads an `ls` document: the root `<tree>`, an optional `<pagination>`, child `<tree>`s;
    /// unknown elements (`client_configs`, `columns`, …) are skipped.
    package init(_ root: XMLElementTree) throws {
        guard root.name == "tree" else { throw ProviderError(.invalidResponse, "an ls answer is a <tree>, not <\(root.name)>") }
        folder = try PydioNode(root)
        children = try root.children.compactMap { try PydioNode($0) }
        if let pagination = root.child("pagination"), let current = pagination.attributes["current"].flatMap({ Int($0) }),
            let total = pagination.attributes["total"].flatMap({ Int($0) })
        {
            guard current >= 1, total >= 0, current < Int.max else {
                throw ProviderError(.invalidResponse, "an ls answer with page \(current) of \(total)")
            }
            // A count that is not a whole number of at least 0 says nothing: the entries of this page stand in.
            let count = pagination.attributes["count"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
            page = (current, total, count ?? children.count)
            declaredCount = count
        }
    }

    /// Whether another page follows this one.
    public var hasNextPage: Bool { page.map { $0.current < $0.total } ?? false }
}
