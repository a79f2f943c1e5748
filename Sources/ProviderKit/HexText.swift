/// ASCII text built from bytes and integers in lowercase hexadecimal, each written as
/// `String(value, radix: 16)` writes it (a `-` before the digits of a negative value).
struct HexText {
    private var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append<Value: FixedWidthInteger>(_ value: Value) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            let digit = UInt8(truncatingIfNeeded: magnitude & 0xF)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            magnitude >>= 4
        } while magnitude != 0
        // The digits were written least significant first.
        bytes.reverseTail(from: start)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}

extension Array where Element == UInt8 {
    /// Reverses the bytes from `start` to the end, in place: `self[start...].reverse()` copies the
    /// slice into a new buffer first, which cost text written backwards (numbers) a copy each time.
    package mutating func reverseTail(from start: Int) {
        var low = start
        var high = count - 1
        while low < high {
            swapAt(low, high)
            low += 1
            high -= 1
        }
    }
}
