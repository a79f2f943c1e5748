import Foundation
import HTTPProviderKit
import Testing

/// Whether `bytes` is well-formed UTF-8 by the shared check.
private func valid(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
}

/// What the shared check says of the sequence at the start of `bytes`.
private func first(_ bytes: [UInt8]) -> UTF8Validation.Sequence {
    bytes.withUnsafeBufferPointer { UTF8Validation.sequence(in: $0, at: 0, end: $0.count) }
}

@Suite("UTF-8 validation shared by the byte readers")
struct UTF8ValidationTests {
    @Test("well-formed text of every sequence length is accepted, as the standard library decodes it")
    func wellFormed() {
        for text in ["", "plain", "café", "€ and 中文", "emoji 😀", "\u{10FFFF}", "\u{D7FF}\u{E000}"] {
            #expect(valid(Array(text.utf8)), "\(text)")
        }
        #expect(first(Array("é".utf8)) == .valid(next: 2))
        #expect(first(Array("€".utf8)) == .valid(next: 3))
        #expect(first(Array("😀".utf8)) == .valid(next: 4))
    }

    @Test("overlong forms, surrogates, values above U+10FFFF and stray bytes are refused")
    func illFormed() {
        let cases: [([UInt8], UTF8Validation.Sequence)] = [
            ([0xC0, 0xAF], .invalidLead),  // overlong "/"
            ([0xC1, 0xBF], .invalidLead),
            ([0xE0, 0x80, 0xAF], .invalidContinuation),  // overlong three-byte
            ([0xF0, 0x80, 0x80, 0xAF], .invalidContinuation),  // overlong four-byte
            ([0xED, 0xA0, 0x80], .invalidContinuation),  // U+D800, a surrogate
            ([0xF4, 0x90, 0x80, 0x80], .invalidContinuation),  // above U+10FFFF
            ([0xF5, 0x80, 0x80, 0x80], .invalidLead),
            ([0x80], .invalidLead),  // a continuation byte alone
            ([0xE2, 0x82], .truncated),
            ([0xF0, 0x9F, 0x98], .truncated),
            ([0xE2, 0x28, 0xA1], .invalidContinuation),
            ([0xE2, 0x82, 0x28], .invalidContinuation),
        ]
        for (bytes, expected) in cases {
            #expect(first(bytes) == expected, "\(bytes)")
            #expect(!valid(bytes), "\(bytes)")
            // Foundation's decoder agrees.
            #expect(String(bytes: bytes, encoding: .utf8) == nil, "\(bytes)")
        }
    }

    @Test("the check agrees with Foundation's decoder over every lead byte and the bytes that may follow it")
    func agreesWithStandardLibrary() {
        for a in UInt8(0x80)...0xFF {
            for b in [UInt8(0x00), 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF] {
                for tail in [[], [0x80], [0x80, 0x80], [0x41, 0x80]] as [[UInt8]] {
                    let bytes = [a, b] + tail
                    #expect(valid(bytes) == (String(bytes: bytes, encoding: .utf8) != nil), "\(bytes)")
                }
            }
        }
    }
}
