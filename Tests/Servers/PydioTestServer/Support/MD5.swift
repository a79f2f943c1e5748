import Foundation

/// MD5 (RFC 1321) for the Pydio 5/6 seed hashing and remember-me values;
/// local so the server needs nothing beyond Hummingbird, SwiftNIO and Logging.
enum MD5 {
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]
    private static let constants: [UInt32] = (0..<64).map {
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296))
    }

    /// Lowercase hex digest.
    static func hex(_ data: Data) -> String {
        var bytes = [UInt8](data)
        let bits = UInt64(bytes.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(shift)))) }
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476]
        for block in stride(from: 0, to: bytes.count, by: 64) {
            let words = (0..<16).map { index -> UInt32 in
                let base = block + index * 4
                return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[base + $1]) << (8 * UInt32($1)) }
            }
            var (a, b, c, d) = (state[0], state[1], state[2], state[3])
            for round in 0..<64 {
                let mixed: UInt32
                let index: Int
                switch round / 16 {
                case 0: mixed = (b & c) | (~b & d); index = round
                case 1: mixed = (d & b) | (~d & c); index = (5 * round + 1) % 16
                case 2: mixed = b ^ c ^ d; index = (3 * round + 5) % 16
                default: mixed = c ^ (b | ~d); index = (7 * round) % 16
                }
                let sum = mixed &+ a &+ constants[round] &+ words[index]
                let shift = shifts[(round / 16) * 4 + round % 4]
                (a, d, c) = (d, c, b)
                b = b &+ (sum << shift | sum >> (32 - shift))
            }
            state[0] = state[0] &+ a
            state[1] = state[1] &+ b
            state[2] = state[2] &+ c
            state[3] = state[3] &+ d
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
            .map { String(format: "%02x", $0) }.joined()
    }

    static func hex(_ text: String) -> String { hex(Data(text.utf8)) }
}
