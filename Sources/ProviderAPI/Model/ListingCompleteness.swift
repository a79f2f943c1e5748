/// What a listing knows of itself: whether it holds every child of its folder, and how it knows.
///
/// An adapter says it on each ``ItemPage`` it returns (``ItemPage/completeness``), and a page loop
/// (``StorageProvider/listing(_:pageSize:fields:)``) joins its pages' and checks the counts they
/// declare. Only a listing that ``isComplete`` may be the ground for deleting anything: a `sync`
/// deletes no extra of a destination folder whose source listing is not complete.
///
/// From the strongest to the weakest: ``counted``, ``ended``, ``cached``, ``partial``; a listing
/// of several pages is as weak as its weakest page (`joined(with:)`).
public enum ListingCompleteness: String, Sendable, Hashable, Codable, CaseIterable {
    /// The server declared how many children the folder has, and the listing received exactly
    /// that many, on pages that agree with one another.
    case counted
    /// The listing reached the end the protocol marks (the last page, the end of a whole
    /// answer), with no declared count to check it against; nothing contradicted it.
    case ended
    /// A whole listing kept from earlier (a cache): complete when it was fetched, but no proof of
    /// what the server holds now.
    case cached
    /// Known or possibly incomplete: children the server named without describing, a cache that
    /// never held the folder's listing whole, a folder only a pending offline write knows.
    case partial

    /// Whether the listing is proven to hold every child of its folder now (``counted`` or ``ended``).
    public var isComplete: Bool { self == .counted || self == .ended }

    /// The weaker of `self` and `other`: what a listing made of both knows.
    package func joined(with other: ListingCompleteness) -> ListingCompleteness {
        strength <= other.strength ? self : other
    }

    /// A phrase for messages, such as `a partial listing`.
    package var phrase: String {
        switch self {
        case .counted: return "a listing that matched its declared count"
        case .ended: return "a listing that reached its end"
        case .cached: return "a cached listing, not read from the server now"
        case .partial: return "a partial listing"
        }
    }

    private var strength: Int {
        switch self {
        case .counted: return 3
        case .ended: return 2
        case .cached: return 1
        case .partial: return 0
        }
    }
}
