import Foundation

/// A normalised path to an item, relative to a provider's root.
///
/// A path is a list of name segments. Parsing `"/a/b/"` and `"a/b"` gives the
/// same path; the root is the empty list and prints as `"/"`.
///
/// A path's identity is its bytes: two paths are equal only when every segment has the same
/// UTF-8 bytes, and they sort by those bytes. Swift's `String` calls an NFC name and its NFD
/// spelling equal; a path does not, so NFC and NFD names stay distinct until a provider says
/// otherwise (see `NameRules`), in every `Set` and `Dictionary` keyed by paths.
///
/// Paths share their prefixes: ``appending(_:)-(String)`` and ``parent`` cost one small node,
/// not a copy of every segment above, so the paths of a tree `n` folders deep take memory in
/// proportion to `n`, not `n²`.
///
/// Parsing rejects `.` and `..` segments, NUL characters and empty segments
/// (`"a//b"`), so a path can never climb out of a provider's root or out of a
/// folder a caller chose.
public struct ItemPath: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The last segment and, through it, those above; `nil` for the root.
    private let last: Segment?

    /// One segment, linked to the one above it. Immutable once made, so shared by every path below it.
    private final class Segment: @unchecked Sendable {
        /// Written only by `deinit`, on segments no one else holds any more.
        private(set) var parent: Segment?
        let name: String
        /// How many segments from the root down to this one.
        let depth: Int
        /// A digest of every segment's bytes from the root down to this one (FNV-1a, with a
        /// separator between segments): equal paths have equal fingerprints.
        let fingerprint: UInt64

        init(parent: Segment?, name: String) {
            self.parent = parent
            self.name = name
            depth = (parent?.depth ?? 0) + 1
            var hash = parent?.fingerprint ?? 0xCBF2_9CE4_8422_2325
            hash = (hash ^ 0x2F) &* 0x0000_0100_0000_01B3
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            fingerprint = hash
        }

        /// Lets go of the segments above one by one: releasing a long chain through nested
        /// deinits would take a stack frame per segment.
        deinit {
            var next = parent
            parent = nil
            while var current = next {
                next = nil
                guard isKnownUniquelyReferenced(&current) else { break }
                next = current.parent
                current.parent = nil
            }
        }
    }

    /// The provider's root.
    public static let root = ItemPath(last: nil)

    private init(last: Segment?) { self.last = last }

    /// A path from names already checked.
    private init<Names: Sequence<String>>(validated names: Names, below base: Segment? = nil) {
        var last = base
        for name in names { last = Segment(parent: last, name: name) }
        self.last = last
    }

    /// Parses a slash-separated path.
    ///
    /// - Throws: ``ProviderError/Code/invalidArgument`` for `.`/`..` segments, NUL or empty segments.
    public init(_ string: String) throws {
        var trimmed = Substring(string)
        while trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        while trimmed.last == "/" { trimmed = trimmed.dropLast() }
        if trimmed.isEmpty {
            self.init(last: nil)
            return
        }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts { try ItemPath.validate(name: part) }
        self.init(validated: parts)
    }

    /// Builds a path from already separated names, validating each.
    public init(segments: [String]) throws {
        for part in segments { try ItemPath.validate(name: part) }
        self.init(validated: segments)
    }

    /// A path from names the caller has already checked by the rules of ``validate(name:)``
    /// (an adapter that checks each name while it decodes it), so they are not checked twice.
    /// Debug builds check them again.
    package init(checkedSegments segments: [String]) {
        assert(segments.allSatisfy { (try? ItemPath.validate(name: $0)) != nil }, "unchecked path segments")
        self.init(validated: segments)
    }

    /// Checks that `name` can be one segment of a path.
    public static func validate(name: String) throws {
        if name.isEmpty {
            throw ProviderError(.invalidArgument, "a path cannot have an empty segment")
        }
        if name == "." || name == ".." {
            throw ProviderError(.invalidArgument, "a path cannot contain '\(name)'")
        }
        // One pass over the UTF-8 (neither byte occurs inside a multi-byte sequence); Foundation's
        // `contains` on strings bridges to NSString and cost 5 % of a 10,000-entry listing.
        for byte in name.utf8 where byte == UInt8(ascii: "/") || byte == 0 {
            if byte == 0 { throw ProviderError(.invalidArgument, "a name cannot contain NUL") }
            throw ProviderError(.invalidArgument, "a name cannot contain '/'")
        }
    }

    /// The names from the root down to the item (made anew on each call: prefer ``depth``,
    /// ``name`` and ``parent`` where they do).
    public var segments: [String] {
        guard let last else { return [] }
        var names = [String](repeating: "", count: last.depth)
        var node: Segment? = last
        while let current = node {
            names[current.depth - 1] = current.name
            node = current.parent
        }
        return names
    }

    /// How many segments the path has: 0 for the root.
    public var depth: Int { last?.depth ?? 0 }
    /// Whether this is the provider's root.
    public var isRoot: Bool { last == nil }
    /// The last segment; empty for the root.
    public var name: String { last?.name ?? "" }
    /// The folder that holds this item; the root's parent is the root.
    public var parent: ItemPath { ItemPath(last: last?.parent) }

    /// The path of the child `name` of this folder.
    public func appending(_ name: String) throws -> ItemPath {
        try ItemPath.validate(name: name)
        return ItemPath(last: Segment(parent: last, name: name))
    }

    /// The path of the child a server named `name` (in a listing, a search result): like
    /// ``appending(_:)-(String)``, but a name that cannot be a path segment (empty, `.`, `..`, with a `/`
    /// or a NUL) is the server's fault, ``ProviderError/Code/invalidResponse``, not the caller's.
    package func appending(serverName name: String) throws -> ItemPath {
        do {
            return try appending(name)
        } catch let error as ProviderError {
            throw ProviderError(
                .invalidResponse, "the server named an item \(name.debugDescription.prefix(200)) in \(self): \(error.message ?? "not a name")")
        }
    }

    /// The path of `other` taken relative to this folder.
    public func appending(_ other: ItemPath) -> ItemPath {
        if other.isRoot { return self }
        if isRoot { return other }
        return ItemPath(validated: other.segments, below: last)
    }

    /// The ancestor of this path that has `depth` segments (this path itself at its own depth).
    private func ancestor(atDepth depth: Int) -> Segment? {
        var node = last
        while let current = node, current.depth > depth { node = current.parent }
        return node
    }

    /// Whether `self` is `other` or lies below it.
    public func isDescendant(of other: ItemPath) -> Bool {
        guard depth >= other.depth else { return false }
        return ItemPath.same(ancestor(atDepth: other.depth), other.last)
    }

    /// This path relative to `ancestor`, or `nil` if it is not below it.
    public func relative(to ancestor: ItemPath) -> ItemPath? {
        guard isDescendant(of: ancestor) else { return nil }
        if ancestor.isRoot { return self }
        var names: [String] = []
        names.reserveCapacity(depth - ancestor.depth)
        var node = last
        while let current = node, current.depth > ancestor.depth {
            names.append(current.name)
            node = current.parent
        }
        return ItemPath(validated: names.reversed())
    }

    /// `"/a/b"`; `"/"` for the root.
    public var description: String {
        // Built in one string of the final length (every item's default id is its path).
        guard last != nil else { return "/" }
        let segments = self.segments
        var text = ""
        text.reserveCapacity(segments.reduce(segments.count) { $0 + $1.utf8.count })
        for segment in segments {
            text.append("/")
            text.append(segment)
        }
        return text
    }

    /// Whether two chains of segments hold the same bytes.
    private static func same(_ lhs: Segment?, _ rhs: Segment?) -> Bool {
        var left = lhs
        var right = rhs
        while true {
            guard let l = left, let r = right else { return left == nil && right == nil }
            if l === r { return true }
            guard l.depth == r.depth, l.fingerprint == r.fingerprint, l.name.utf8.elementsEqual(r.name.utf8) else { return false }
            left = l.parent
            right = r.parent
        }
    }

    /// Equal when every segment has the same UTF-8 bytes (an NFC name and its NFD spelling differ).
    public static func == (lhs: ItemPath, rhs: ItemPath) -> Bool { same(lhs.last, rhs.last) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(depth)
        hasher.combine(last?.fingerprint ?? 0)
    }

    /// Segment by segment, each by its UTF-8 bytes; a path sorts before the paths below it.
    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        if same(lhs.last, rhs.last) { return false }
        let left = lhs.segments
        let right = rhs.segments
        for (l, r) in zip(left, right) where !l.utf8.elementsEqual(r.utf8) {
            return l.utf8.lexicographicallyPrecedes(r.utf8)
        }
        return left.count < right.count
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(try container.decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension ItemPath: ExpressibleByStringLiteral {
    /// A path from a literal. An invalid literal is a programming error and traps.
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("invalid ItemPath literal \(value): \(error)") }
    }
}
