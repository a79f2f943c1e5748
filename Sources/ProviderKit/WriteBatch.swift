import NIOCore

/// Received buffers gathered until there are enough to be worth one hop to the blocking thread
/// pool (``BlockingIO``): a download's pieces arrive as the network delivers them, often 16 to
/// 64 KiB each, and a hop per piece would cost a thread hand-off for every few kilobytes.
///
/// The buffers are kept as they came (no copy); a batch is full at ``limitBytes`` bytes or
/// ``limitPieces`` pieces, whichever comes first, so the memory it holds stays near `limitBytes`
/// even when each piece is small in a large buffer.
package struct WriteBatch: Sendable {
    /// The bytes at which the batch is full (1 MiB by default).
    package let limitBytes: Int
    /// The pieces at which the batch is full (64 by default).
    package let limitPieces: Int
    package private(set) var pieces: [ByteBuffer] = []
    package private(set) var bytes = 0

    package init(limitBytes: Int = 1 << 20, limitPieces: Int = 64) {
        self.limitBytes = max(1, limitBytes)
        self.limitPieces = max(1, limitPieces)
    }

    package var isEmpty: Bool { pieces.isEmpty }

    /// Adds `piece` (an empty one is left out); returns whether the batch is now full.
    package mutating func append(_ piece: ByteBuffer) -> Bool {
        if piece.readableBytes > 0 {
            pieces.append(piece)
            bytes += piece.readableBytes
        }
        return bytes >= limitBytes || pieces.count >= limitPieces
    }

    /// The gathered pieces, in order; the batch is empty afterwards.
    package mutating func take() -> [ByteBuffer] {
        defer {
            pieces = []
            bytes = 0
        }
        return pieces
    }
}
