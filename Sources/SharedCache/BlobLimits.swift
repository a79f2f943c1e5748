import Foundation

/// The limits the blob store evicts least-recently-used blobs to respect.
public struct BlobLimits: Sendable, Hashable {
    /// The most bytes the store keeps, or nil for no byte limit.
    public var maxBytes: Int64?
    /// The most blobs the store keeps, or nil for no count limit.
    public var maxCount: Int?

    /// Creates limits; by default unlimited bytes and 100 blobs.
    public init(maxBytes: Int64? = nil, maxCount: Int? = 100) {
        self.maxBytes = maxBytes
        self.maxCount = maxCount
    }
}
