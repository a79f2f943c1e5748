import Foundation

/// Fast pseudo-random bytes for test content (not for secrets).
enum RandomBytes {
    /// `count` random bytes.
    static func make(_ count: Int) -> [UInt8] {
        var generator = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let word = generator.next()
                let take = min(8, raw.count - offset)
                withUnsafeBytes(of: word) { source in
                    for index in 0..<take { raw[offset + index] = source[index] }
                }
                offset += take
            }
        }
        return bytes
    }
}
