import ProviderAPI

/// How many pairs of files were found the same by what: their content, their sizes and modified
/// times, or their sizes alone. Only the first compares content: a file rewritten at the same size
/// with its modified time set back passes the other two.
public struct ComparisonCounts: Sendable, Hashable, Encodable {
    /// Pairs found the same by a digest (declared or computed) or by reading both files.
    public var content = 0
    /// Pairs found the same by their sizes and modified times, content not compared (a digest kept
    /// from an earlier read of a file of the same size, modified time and etag counts here).
    public var sizeAndModified = 0
    /// Pairs found the same by their sizes alone, content not compared.
    public var size = 0

    /// Creates counts.
    package init(content: Int = 0, sizeAndModified: Int = 0, size: Int = 0) {
        self.content = content
        self.sizeAndModified = sizeAndModified
        self.size = size
    }

    /// Pairs found the same without comparing their content.
    public var notByContent: Int { sizeAndModified + size }

    /// Counts one pair found the same by `basis`.
    mutating func add(_ basis: SameFileRule.Basis) {
        switch basis {
        case .content: content += 1
        case .sizeAndModified: sizeAndModified += 1
        case .size: size += 1
        }
    }

    /// Adds `other`'s counts.
    mutating func add(_ other: ComparisonCounts) {
        content += other.content
        sizeAndModified += other.sizeAndModified
        size += other.size
    }

    private enum CodingKeys: String, CodingKey { case content, sizeAndModified, size, notByContent }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(content, forKey: .content)
        try container.encode(sizeAndModified, forKey: .sizeAndModified)
        try container.encode(size, forKey: .size)
        try container.encode(notByContent, forKey: .notByContent)
    }
}
