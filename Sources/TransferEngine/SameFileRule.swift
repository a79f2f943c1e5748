import Foundation
import ProviderAPI

/// How a transfer decides that a file on the destination is the same as the one on the source,
/// chosen once per job from the two providers' capabilities (``choose(source:destination:computingOnSource:)``).
///
/// In order of preference:
/// 1. `digest`: a digest algorithm both sides declare (SHA-256, then SHA-1, then MD5); or one
///    only the destination declares, computed on the source by reading the files whose sizes
///    match (``computedOnSource``), when the job allows it;
/// 2. `sizeAndModified`: equal sizes and modified times within the coarser of the
///    two declared precisions, when both sides keep modified times and the destination can set
///    them (else every copied file would look changed);
/// 3. `sizeAndNotNewer`: equal sizes, and the source not modified after the destination's file
///    was written (beyond the coarser precision), when both sides keep modified times but the
///    destination cannot set them: its time is when the copy was made, so a source file changed
///    since then differs even when its size did not change. A source time in the future (by this
///    machine's clock) tells nothing, and such a pair is compared by size;
/// 4. `size`: equal sizes.
///
/// A pair of files that lacks what the rule needs (a digest the listing left out, a missing
/// modified time) is compared by the next rule down that it has, so a file is never taken for
/// changed only because a server left a field out.
public struct SameFileRule: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// What is compared.
    public enum Kind: String, Sendable, Hashable, Encodable {
        /// A content digest both sides declare.
        case digest
        /// Size, and modified time within a tolerance.
        case sizeAndModified
        /// Size, and the source not modified after the destination's file was written (within a
        /// tolerance): for a destination that keeps modified times but cannot set them.
        case sizeAndNotNewer
        /// Size alone.
        case size
    }

    /// What is compared.
    public var kind: Kind
    /// The digest compared, for `digest`.
    public var algorithm: DigestAlgorithm?
    /// Whether the source declares no digest and the job reads the source's files to compute it
    /// (only for files whose size matches a destination file that carries the digest).
    public var computedOnSource: Bool
    /// How far apart two modified times may be and still be the same, for
    /// `sizeAndModified` (and how much later the source's may be, for `sizeAndNotNewer`); also
    /// the fallback of a digest rule when a digest is missing.
    public var tolerance: Duration?

    /// Creates a rule.
    public init(kind: Kind, algorithm: DigestAlgorithm? = nil, tolerance: Duration? = nil, computedOnSource: Bool = false) {
        self.kind = kind
        self.algorithm = algorithm
        self.computedOnSource = computedOnSource
        self.tolerance = tolerance
    }

    /// The rule for a transfer from a provider with `source` capabilities to one with `destination`'s;
    /// with `computingOnSource`, a digest only the destination declares (one Strata computes) is
    /// computed on the source.
    public static func choose(source: Capabilities, destination: Capabilities, computingOnSource: Bool = false) -> SameFileRule {
        let tolerance = modifiedTolerance(source: source, destination: destination)
        let preferred: [DigestAlgorithm] = [.sha256, .sha1, .md5]
        if source.supports(.digests), destination.supports(.digests) {
            let common = source.digestAlgorithms.intersection(destination.digestAlgorithms)
            if let algorithm = preferred.first(where: common.contains) ?? common.sorted(by: { $0.rawValue < $1.rawValue }).first {
                return SameFileRule(kind: .digest, algorithm: algorithm, tolerance: tolerance)
            }
        }
        if computingOnSource, !source.supports(.digests), destination.supports(.digests),
            let algorithm = preferred.first(where: destination.digestAlgorithms.contains)
        {
            return SameFileRule(kind: .digest, algorithm: algorithm, tolerance: tolerance, computedOnSource: true)
        }
        if let tolerance { return SameFileRule(kind: .sizeAndModified, tolerance: tolerance) }
        if let from = source.modifiedTimePrecision, let to = destination.modifiedTimePrecision {
            return SameFileRule(kind: .sizeAndNotNewer, tolerance: max(from, to))
        }
        return SameFileRule(kind: .size)
    }

    /// The coarser of the two precisions, when modified times can be compared after a copy.
    private static func modifiedTolerance(source: Capabilities, destination: Capabilities) -> Duration? {
        guard let from = source.modifiedTimePrecision, let to = destination.modifiedTimePrecision,
            destination.supports(.setModifiedTime)
        else { return nil }
        return max(from, to)
    }

    /// Whether `source` and `destination` are the same file under this rule.
    public func same(_ source: Item, _ destination: Item) -> Bool {
        guard source.kind == .file, destination.kind == .file else { return source.kind == destination.kind }
        if let sourceSize = source.size, let destinationSize = destination.size, sourceSize != destinationSize { return false }
        if kind == .digest, let algorithm, let left = source.digests[algorithm], let right = destination.digests[algorithm] {
            return left.lowercased() == right.lowercased()
        }
        if kind == .sizeAndNotNewer, let tolerance, let left = source.modified, let right = destination.modified,
            left.timeIntervalSinceNow <= Self.seconds(tolerance)
        {
            return left.timeIntervalSince(right) <= Self.seconds(tolerance) + 1e-6
        }
        if kind == .digest || kind == .sizeAndModified, let tolerance, let left = source.modified, let right = destination.modified {
            let apart = abs(left.timeIntervalSince(right))
            return apart <= Self.seconds(tolerance) + 1e-6
        }
        return source.size != nil && destination.size != nil
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `sha256`, `size and modified time (within 1 ms)`, `size, and the source not modified
    /// since the copy (within 1 s)` or `size`: how the rule is printed.
    public var description: String {
        switch kind {
        case .digest: return (algorithm?.rawValue ?? "digest") + (computedOnSource ? " (computed on the source)" : "")
        case .sizeAndModified: return "size and modified time (within \(tolerance.map { Self.text($0) } ?? "0 s"))"
        case .sizeAndNotNewer:
            return "size, and the source not modified since the copy (within \(tolerance.map { Self.text($0) } ?? "0 s"))"
        case .size: return "size"
        }
    }

    private static func text(_ duration: Duration) -> String {
        let value = seconds(duration)
        if value >= 1, value == value.rounded() { return "\(Int(value)) s" }
        if value >= 0.001 { return "\(Int((value * 1000).rounded())) ms" }
        return "\(Int((value * 1_000_000).rounded())) µs"
    }

    private enum CodingKeys: String, CodingKey { case kind, algorithm, computedOnSource, toleranceSeconds, description }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(algorithm?.rawValue, forKey: .algorithm)
        try container.encode(computedOnSource, forKey: .computedOnSource)
        try container.encodeIfPresent(tolerance.map(Self.seconds), forKey: .toleranceSeconds)
        try container.encode(description, forKey: .description)
    }
}
