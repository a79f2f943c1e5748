import Foundation
import ProviderAPI
import ProviderKit

/// How a transfer decides that a file on the destination is the same as the one on the source,
/// chosen once per job from the two providers' capabilities
/// (`choose(source:destination:computingDigests:comparison:)`).
///
/// The rule depends on the two providers, not on which is the source: `check A B` and
/// `check B A` compare by the same rule (same kind, digest and tolerance), so a tree copied one
/// way is found the same the other way. With the default ``Comparison/listings``, in order of
/// preference:
/// 1. `digest`: a digest algorithm both sides declare (SHA-256, then SHA-1, then MD5); or,
///    when the job allows it, the preferred one that only one side declares, computed by reading
///    the files of the other side whose sizes match (`computedOn`);
/// 2. `sizeAndModified`: equal sizes and modified times within the coarser of the two declared
///    precisions, when both sides keep modified times and both can set them;
/// 3. `sizeAndNotNewer`: equal sizes, and the file on the side that cannot set modified times
///    (`laterSide`) not older than the other's (beyond the coarser precision), when both keep
///    modified times and one side alone can set them: a copy onto that side gets the time the copy
///    was written, a copy from it keeps its time, and a same-size change on the other side after
///    the copy differs. A time in the future (by this machine's clock) on the other side tells
///    nothing, and such a pair is compared by size;
/// 4. `size`: equal sizes (also when neither side can set modified times: a copy either way is
///    newer than its original, so the times cannot tell which side changed).
///
/// A pair of files that lacks what the rule needs (a digest the listing left out, a missing
/// modified time) is compared by the next rule down that it has, so a file is never taken for
/// changed only because a server left a field out.
///
/// Only a digest compares content. ``Comparison/checksum`` never falls back to size or times: a
/// digest missing on a side is computed from the file; ``Comparison/content`` reads both files
/// whatever the listings say.
public struct SameFileRule: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// What is compared.
    public enum Kind: String, Sendable, Hashable, Encodable {
        /// A content digest both sides declare, or one side declares and the other's is computed;
        /// a pair missing it is compared by size and times.
        case digest
        /// A content digest for every pair of same-size files: declared where the side declares
        /// it, else computed by reading the file; never size or times alone.
        case checksum
        /// Both files read and their content compared, whatever the listings say.
        case content
        /// Size, and modified time within a tolerance.
        case sizeAndModified
        /// Size, and the file on the side that cannot set modified times (`SameFileRule.laterSide`)
        /// not older than the other's, within a tolerance.
        case sizeAndNotNewer
        /// Size alone.
        case size
    }

    /// A side of the transfer.
    package enum Side: String, Sendable, Hashable, Encodable {
        /// The source.
        case source
        /// The destination.
        case destination

        /// The other side.
        package var other: Side { self == .source ? .destination : .source }
    }

    /// How strongly files are compared, whatever the listings allow.
    public enum Comparison: String, Sendable, Hashable, Encodable {
        /// What the listings allow: a digest, else size and modified times, else size (the default).
        case listings
        /// Content by digests: those both sides declare, else computed by reading the files of the
        /// side(s) that lack them (`--checksum`); never size or times alone.
        case checksum
        /// Content read from both files (`check --download`), whatever the listings say.
        case content
    }

    /// What one pair of files was found the same or different by.
    package enum Basis: String, Sendable, Hashable, Encodable {
        /// Their content (a digest, declared or computed, or both files read).
        case content
        /// Their sizes and modified times.
        case sizeAndModified
        /// Their sizes alone.
        case size
    }

    /// What is compared.
    public var kind: Kind
    /// The digest compared, for `digest`, `checksum` and `content`.
    public var algorithm: DigestAlgorithm?
    /// The sides that do not declare ``algorithm``, whose files are read to compute it (only files
    /// whose size matches the other side's file; for `content`, both sides and every file; for
    /// `checksum`, also a file of the other side whose listing left the digest out).
    package var computedOn: Set<Side>
    /// For `sizeAndNotNewer` (and a `digest` rule falling back to it): the side that cannot set
    /// modified times, whose file must not be older than the other's.
    package var laterSide: Side?
    /// How far apart two modified times may be and still be the same, for `sizeAndModified` (and
    /// how much older the later side's may be, for `sizeAndNotNewer`); also the fallback of a
    /// `digest` rule when a digest is missing.
    public var tolerance: Duration?

    /// Whether the source's files are read to compute the digest.
    package var computedOnSource: Bool { computedOn.contains(.source) }

    /// Whether the rule compares content for every pair it finds the same (no fallback to sizes or times).
    package var comparesContent: Bool { kind == .checksum || kind == .content }

    /// Creates a rule; a `sizeAndNotNewer` rule without `laterSide` has the destination as its later side.
    package init(
        kind: Kind, algorithm: DigestAlgorithm? = nil, tolerance: Duration? = nil, computedOn: Set<Side> = [], laterSide: Side? = nil
    ) {
        self.kind = kind
        self.algorithm = algorithm
        self.computedOn = computedOn
        self.tolerance = tolerance
        self.laterSide = laterSide ?? (kind == .sizeAndNotNewer ? .destination : nil)
    }

    /// The rule for a transfer between a provider with `source` capabilities and one with
    /// `destination`'s: the same rule whichever is the source (only `computedOn` and
    /// `laterSide`, which name sides, are swapped). With `computingDigests`, a digest one side
    /// declares and the other does not is computed on the other side; `comparison` asks for content.
    package static func choose(
        source: Capabilities, destination: Capabilities, computingDigests: Bool = false, comparison: Comparison = .listings
    ) -> SameFileRule {
        let preferred: [DigestAlgorithm] = [.sha256, .sha1, .md5]
        let declared = (source: declaredDigests(source), destination: declaredDigests(destination))
        let common = declared.source.intersection(declared.destination)
        let commonAlgorithm = preferred.first(where: common.contains) ?? common.sorted(by: { $0.rawValue < $1.rawValue }).first
        let computable = declared.source.union(declared.destination).filter { Digester($0) != nil }
        let oneSided = preferred.first(where: computable.contains)
        switch comparison {
        case .content:
            return SameFileRule(kind: .content, algorithm: .sha256, computedOn: [.source, .destination])
        case .checksum:
            // A digest both declare that Strata can compute where a listing leaves it out, else the
            // preferred one either declares, else SHA-256 computed on both sides.
            let algorithm = commonAlgorithm.flatMap { Digester($0) != nil ? $0 : nil } ?? oneSided ?? commonAlgorithm ?? .sha256
            var sides: Set<Side> = []
            if !declared.source.contains(algorithm) { sides.insert(.source) }
            if !declared.destination.contains(algorithm) { sides.insert(.destination) }
            return SameFileRule(kind: .checksum, algorithm: algorithm, computedOn: sides)
        case .listings:
            let time = timeRule(source: source, destination: destination)
            if let commonAlgorithm {
                return SameFileRule(kind: .digest, algorithm: commonAlgorithm, tolerance: time.tolerance, laterSide: time.laterSide)
            }
            if computingDigests, let oneSided {
                let lacking: Side = declared.source.contains(oneSided) ? .destination : .source
                return SameFileRule(
                    kind: .digest, algorithm: oneSided, tolerance: time.tolerance, computedOn: [lacking], laterSide: time.laterSide)
            }
            return time
        }
    }

    /// The digests a provider's items carry.
    private static func declaredDigests(_ capabilities: Capabilities) -> Set<DigestAlgorithm> {
        capabilities.supports(.digests) ? capabilities.digestAlgorithms : []
    }

    /// The rule by sizes and times: the same whichever side is the source.
    private static func timeRule(source: Capabilities, destination: Capabilities) -> SameFileRule {
        guard let from = source.modifiedTimePrecision, let to = destination.modifiedTimePrecision else { return SameFileRule(kind: .size) }
        let tolerance = max(from, to)
        switch (source.supports(.setModifiedTime), destination.supports(.setModifiedTime)) {
        case (true, true): return SameFileRule(kind: .sizeAndModified, tolerance: tolerance)
        case (true, false): return SameFileRule(kind: .sizeAndNotNewer, tolerance: tolerance, laterSide: .destination)
        case (false, true): return SameFileRule(kind: .sizeAndNotNewer, tolerance: tolerance, laterSide: .source)
        case (false, false): return SameFileRule(kind: .size)
        }
    }

    /// Whether `source` and `destination` are the same file under this rule.
    package func same(_ source: Item, _ destination: Item) -> Bool { compare(source, destination).same }

    /// Whether `source` and `destination` are the same file under this rule, and what that rests
    /// on: their content, their sizes and times, or their sizes alone.
    package func compare(_ source: Item, _ destination: Item) -> (same: Bool, basis: Basis) {
        guard source.kind == .file, destination.kind == .file else { return (source.kind == destination.kind, .size) }
        if let sourceSize = source.size, let destinationSize = destination.size, sourceSize != destinationSize { return (false, .size) }
        if kind == .digest || comparesContent {
            if let algorithm, let left = source.digests[algorithm], let right = destination.digests[algorithm] {
                return (left.lowercased() == right.lowercased(), .content)
            }
            // Content could not be compared: never the same by size or times alone.
            if comparesContent { return (false, .content) }
        }
        if let tolerance, let left = source.modified, let right = destination.modified {
            let slack = Self.seconds(tolerance) + 1e-6
            if let laterSide {
                let (earlier, later) = laterSide == .destination ? (left, right) : (right, left)
                if earlier.timeIntervalSinceNow <= Self.seconds(tolerance) {
                    return (earlier.timeIntervalSince(later) <= slack, .sizeAndModified)
                }
            } else {
                return (abs(left.timeIntervalSince(right)) <= slack, .sizeAndModified)
            }
        }
        return (source.size != nil && destination.size != nil, .size)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `sha256`, `md5 (computed on the destination)`, `size and modified time (within 1 ms)`,
    /// `size, and the destination not older than the source (within 1 s)`, `content (both files read, sha256)`
    /// or `size`: how the rule is printed.
    public var description: String {
        let computed: String
        switch (computedOn.contains(.source), computedOn.contains(.destination)) {
        case (true, true): computed = " (computed on both sides)"
        case (true, false): computed = " (computed on the source)"
        case (false, true): computed = " (computed on the destination)"
        case (false, false): computed = ""
        }
        let within = "within \(tolerance.map { Self.text($0) } ?? "0 s")"
        switch kind {
        case .digest: return (algorithm?.rawValue ?? "digest") + computed
        case .checksum: return "checksum " + (algorithm?.rawValue ?? "digest") + computed
        case .content: return "content (both files read, \(algorithm?.rawValue ?? "digest"))"
        case .sizeAndModified: return "size and modified time (\(within))"
        case .sizeAndNotNewer:
            let later = laterSide ?? .destination
            return "size, and the \(later.rawValue) not older than the \(later.other.rawValue) (\(within))"
        case .size: return "size"
        }
    }

    private static func text(_ duration: Duration) -> String {
        let value = seconds(duration)
        if value >= 1, value == value.rounded() { return "\(Int(value)) s" }
        if value >= 0.001 { return "\(Int((value * 1000).rounded())) ms" }
        return "\(Int((value * 1_000_000).rounded())) µs"
    }

    private enum CodingKeys: String, CodingKey {
        case kind, algorithm, computedOnSource, computedOnDestination, laterSide, toleranceSeconds, comparesContent, description
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(algorithm?.rawValue, forKey: .algorithm)
        try container.encode(computedOn.contains(.source), forKey: .computedOnSource)
        try container.encode(computedOn.contains(.destination), forKey: .computedOnDestination)
        try container.encodeIfPresent(laterSide, forKey: .laterSide)
        try container.encodeIfPresent(tolerance.map(Self.seconds), forKey: .toleranceSeconds)
        try container.encode(comparesContent, forKey: .comparesContent)
        try container.encode(description, forKey: .description)
    }
}
