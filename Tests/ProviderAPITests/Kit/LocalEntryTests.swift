import Foundation
import Testing
@testable import ProviderKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The etag and stable id of a local entry are written without `String(_:radix:)`; they must stay
/// exactly what it wrote (a changed etag would make every cached local item look modified).
@Suite("LocalEntry text")
struct LocalEntryTests {
    static let signed: [Int64] = [0, 1, 9, 10, 15, 16, 255, 256, 4095, 1_700_000_000, 999_999_999, -1, -16, -1_700_000_000, .max, .min]
    static let unsigned: [UInt64] = [0, 1, 10, 15, 16, 0xdead_beef, 0x10_0000_0000, .max]

    @Test("HexText writes each number as String(_:radix: 16) does")
    func hex() {
        for value in Self.signed {
            var text = HexText(capacity: 4)
            text.append(value)
            #expect(text.string == String(value, radix: 16), "\(value)")
        }
        for value in Self.unsigned {
            var text = HexText(capacity: 0)
            text.append(UInt8(ascii: "x"))
            text.append(value)
            #expect(text.string == "x" + String(value, radix: 16), "\(value)")
        }
    }

    @Test("etag and stableID as they were written before", arguments: 0..<64)
    func entryText(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        var info = stat()
        info.st_size = off_t(truncatingIfNeeded: Int64(bitPattern: generator.next()) >> (seed % 40))
        info.st_ino = ino_t(truncatingIfNeeded: generator.next() >> (seed % 60))
        info.st_dev = dev_t(truncatingIfNeeded: generator.next() >> (seed % 50))
        #if canImport(Glibc)
        info.st_mtim.tv_sec = time_t(truncatingIfNeeded: Int64(bitPattern: generator.next()) >> 30)
        info.st_mtim.tv_nsec = Int(generator.next() % 1_000_000_000)
        #else
        info.st_mtimespec.tv_sec = time_t(truncatingIfNeeded: Int64(bitPattern: generator.next()) >> 30)
        info.st_mtimespec.tv_nsec = Int(generator.next() % 1_000_000_000)
        #endif
        info.st_mode = mode_t(S_IFREG) | 0o644
        let entry = LocalEntry(info)
        let etag = "\"\(String(entry.modifiedSeconds, radix: 16)).\(String(entry.modifiedNanoseconds, radix: 16))-\(String(entry.size, radix: 16))-\(String(entry.inode, radix: 16))\""
        #expect(entry.etag == etag)
        #expect(entry.stableID == String(entry.device, radix: 16) + ":" + String(entry.inode, radix: 16))
    }
}

/// A small deterministic generator (SplitMix64).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
