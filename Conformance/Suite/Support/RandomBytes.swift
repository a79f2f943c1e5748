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

/// SplitMix64, a small fast generator.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
