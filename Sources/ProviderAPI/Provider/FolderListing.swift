/// Every child of a folder, with what the listing knows of its own completeness: the answer of
/// ``StorageProvider/listing(_:pageSize:fields:)``.
public struct FolderListing: Sendable, Hashable {
    /// The children, in the order the pages brought them.
    public var items: [Item]
    /// Whether the listing is proven to hold every child (``ListingCompleteness/isComplete``), and how.
    public var completeness: ListingCompleteness
    /// The names that are neither files nor folders (``ItemPage/skipped``), from every page.
    public var skipped: [SkippedEntry]

    /// Creates a listing.
    public init(items: [Item], completeness: ListingCompleteness, skipped: [SkippedEntry] = []) {
        self.items = items
        self.completeness = completeness
        self.skipped = skipped
    }
}
