import Foundation
import ProviderAPI
import ProviderConformance
import Testing

/// Rules like Pydio's: `? " | \ :` refused, no leading space, no trailing space or dot, no dot-files.
private let strict = NameRules(
    forbiddenCharacters: ["?", "\"", "|", "\\", ":"], allowsLeadingSpace: false, allowsTrailingSpace: false,
    allowsTrailingDot: false, allowsDotFiles: false)
/// Only characters are refused; spaces and dots anywhere are fine.
private let charactersOnly = NameRules(forbiddenCharacters: ["?", "\"", "|", "\\", ":", "*", "<", ">"])

private let matrix: [String] = [
    "plain.txt", "a?b", "\"quoted\"", "pipe|", "back\\slash", "c:d", "?\"|\\:", " leading", "trailing ", "trailing.",
    " both ", ".bashrc", ".", "..x", "x..", "a . b", "\u{FF1F}", "\u{201B}", "\u{2420}", "\u{FF0E}", "\u{FF02}",
    "\u{FF5C}", "\u{FF3C}", "\u{FF1A}", "a\u{201B}?b", "\u{201B}\u{FF1F}", "\u{2420}lead", "x\u{FF0E}",
    "\u{201B}\u{201B}", "end\u{201B}", "\u{FF01}\u{FF5E}", "caf\u{E9}", "cafe\u{301}", "😀?😀", "日本語:テキスト",
    "?\u{301}", " \u{301}x", "x.\u{301}", "\u{FF1F}\u{301}",
]

private func forbiddenScalars(in name: String, rules: NameRules) -> [Unicode.Scalar] {
    name.unicodeScalars.filter { rules.forbiddenCharacters.contains(Character($0)) }
}

@Suite("NameEncoder")
struct NameEncoderTests {
    @Test("exact encodings for refused characters, spaces and dots")
    func exactEncodings() {
        let encoder = NameEncoder(rules: strict)
        #expect(encoder.encode("a?b") == "a\u{FF1F}b")
        #expect(encoder.encode("say \"hi\"") == "say \u{FF02}hi\u{FF02}")
        #expect(encoder.encode("a|b\\c:d") == "a\u{FF5C}b\u{FF3C}c\u{FF1A}d")
        #expect(encoder.encode(" x") == "\u{2420}x")
        #expect(encoder.encode("x ") == "x\u{2420}")
        #expect(encoder.encode("x.") == "x\u{FF0E}")
        #expect(encoder.encode(".bashrc") == "\u{FF0E}bashrc")
        #expect(encoder.encode("a b.c") == "a b.c", "inner spaces and dots are left alone")
        #expect(encoder.encode("plain") == "plain")
    }

    @Test("look-alikes already in a name are quoted")
    func quotesLookAlikes() {
        let encoder = NameEncoder(rules: strict)
        #expect(encoder.encode("\u{FF1F}") == "\u{201B}\u{FF1F}")
        #expect(encoder.encode("\u{201B}") == "\u{201B}\u{201B}")
        #expect(encoder.encode("\u{2420}") == "\u{201B}\u{2420}")
        #expect(encoder.encode("\u{FF0E}") == "\u{201B}\u{FF0E}")
        // A full-width form of a character the server accepts is not a substitute.
        #expect(encoder.encode("\u{FF01}") == "\u{FF01}")
        #expect(encoder.decode("\u{FF01}") == "\u{FF01}")
    }

    @Test("permissive rules leave names unchanged")
    func permissiveIsIdentity() {
        let encoder = NameEncoder(rules: NameRules())
        for name in ["a?b", " x ", ".bashrc", "x.", "a|b:c", "caf\u{E9}"] {
            #expect(encoder.encode(name) == name)
            #expect(encoder.decode(name) == name)
        }
    }

    @Test("round-trip and acceptance over the name matrix", arguments: [strict, charactersOnly, NameRules()])
    func matrixRoundTrip(_ rules: NameRules) {
        let encoder = NameEncoder(rules: rules)
        for name in matrix {
            let encoded = encoder.encode(name)
            let decoded = encoder.decode(encoded)
            #expect(Array(decoded.utf8) == Array(name.utf8), "\(name.debugDescription) → \(encoded.debugDescription) → \(decoded.debugDescription)")
            if name != "." {
                #expect(rules.accepts(encoded), "\(name.debugDescription) encoded as \(encoded.debugDescription)")
            }
            #expect(forbiddenScalars(in: encoded, rules: rules).isEmpty, "\(name.debugDescription) encoded as \(encoded.debugDescription)")
        }
    }

    @Test(
        "accepts refuses exactly the names holding a forbidden Character or scalar, ASCII names and sets or not",
        arguments: [
            strict, charactersOnly, NameRules(forbiddenCharacters: ["\r", "\n", "~", "\u{7F}", "\0"]),
            NameRules(forbiddenCharacters: ["?", "\u{037E}"]), NameRules(forbiddenCharacters: ["K", "\r\n"]), NameRules(),
        ])
    func acceptsMatchesDefinition(_ rules: NameRules) {
        // The definition the byte-wise check of ASCII names must agree with.
        func refused(_ name: String) -> Bool {
            name.contains { rules.forbiddenCharacters.contains($0) }
                || name.unicodeScalars.contains { rules.forbiddenCharacters.contains(Character($0)) }
        }
        let names = matrix + [
            "a\r\nb", "a\rb", "x\ny", "tilde~", "del\u{7F}", "nul\0", "semi;colon", "greek\u{037E}", "Kelvin", "\u{212A}elvin", "k",
            "plain-name_01.bin", "", "~", "\u{7F}",
        ]
        for name in names where name.utf8.count <= rules.maxNameBytes {
            let shaped = NameRules(forbiddenCharacters: rules.forbiddenCharacters)
            #expect(shaped.accepts(name) == !refused(name), "\(name.debugDescription)")
        }
    }

    @Test("a forbidden character carrying a combining mark is still encoded")
    func combiningMarks() {
        let encoder = NameEncoder(rules: strict)
        let encoded = encoder.encode("?\u{301}")
        #expect(!encoded.unicodeScalars.contains("?"))
        #expect(encoder.decode(encoded).unicodeScalars.elementsEqual("?\u{301}".unicodeScalars))
        #expect(!strict.accepts("?\u{301}"), "the server sees a raw '?'")
        #expect(!strict.accepts(" \u{301}x"), "the server sees a leading space")
        #expect(encoder.encode(" \u{301}x").unicodeScalars.first == "\u{2420}")
    }

    @Test("property: decode(encode(x)) == x and the server accepts encode(x)", arguments: [strict, charactersOnly])
    func property(_ rules: NameRules) {
        let alphabet: [String] = [
            "a", "Z", "0", ".", " ", "?", "\"", "|", "\\", ":", "*", "\u{FF1F}", "\u{201B}", "\u{2420}", "\u{FF0E}",
            "\u{FF02}", "\u{FF5C}", "\u{FF3C}", "\u{FF1A}", "\u{FF0A}", "\u{E9}", "\u{301}", "😀", "-",
        ]
        var random = SplitMix64(seed: 0x5EED_0F_57A7A)
        let encoder = NameEncoder(rules: rules)
        var checked = 0
        for _ in 0..<3000 {
            let length = Int(random.next() % 8) + 1
            var name = ""
            for _ in 0..<length { name += alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if name == "." || name == ".." { continue }
            let encoded = encoder.encode(name)
            let decoded = encoder.decode(encoded)
            #expect(decoded.unicodeScalars.elementsEqual(name.unicodeScalars), "\(name.debugDescription) → \(encoded.debugDescription) → \(decoded.debugDescription)")
            #expect(rules.accepts(encoded), "\(name.debugDescription) → \(encoded.debugDescription)")
            #expect(forbiddenScalars(in: encoded, rules: rules).isEmpty, "\(name.debugDescription) → \(encoded.debugDescription)")
            checked += 1
        }
        #expect(checked > 2900)
    }

    @Test("rules that refuse nothing have no substitutes: a look-alike there is a name of its own, decoded as it is")
    func noSubstitutesWhereNothingIsRefused() {
        let encoder = NameEncoder(rules: NameRules())
        #expect(encoder.isIdentity)
        for name in ["\u{FF0E}config", "\u{2420}x", "\u{201B}\u{FF1F}", "\u{FF1F}", "\u{201B}"] {
            #expect(Array(encoder.encode(name).utf8) == Array(name.utf8))
            #expect(Array(encoder.decode(name).utf8) == Array(name.utf8))
        }
        // Only characters refused: `␠` and `．` are not substitutes there, `？` is.
        let characters = NameEncoder(rules: charactersOnly)
        #expect(!characters.isIdentity)
        #expect(characters.decode("\u{2420}x\u{FF0E}") == "\u{2420}x\u{FF0E}")
        #expect(characters.encode("\u{2420}x\u{FF0E}") == "\u{2420}x\u{FF0E}")
        #expect(characters.decode("\u{FF1F}") == "?")
    }

    @Test("names that are only a substitute, nested quotes, quotes before other characters")
    func edgeCases() {
        let encoder = NameEncoder(rules: strict)
        // A substitute alone, written by another tool, stands for what it replaces.
        #expect(encoder.decode("\u{FF1F}") == "?")
        #expect(encoder.decode("\u{2420}") == " ")
        #expect(encoder.decode("\u{FF0E}") == ".")
        // Nested quotes: each level undone once.
        #expect(encoder.encode("\u{201B}\u{201B}\u{FF1F}") == "\u{201B}\u{201B}\u{201B}\u{201B}\u{201B}\u{FF1F}")
        #expect(encoder.decode("\u{201B}\u{201B}\u{201B}\u{201B}\u{201B}\u{FF1F}") == "\u{201B}\u{201B}\u{FF1F}")
        // A quote before a character that is no substitute is kept as it is.
        #expect(encoder.decode("\u{201B}a") == "\u{201B}a")
        #expect(encoder.decode("a\u{201B}") == "a\u{201B}")
        // A quote before a combining mark, a substitute carrying one.
        for name in ["\u{201B}\u{301}", "\u{FF1F}\u{301}", "\u{201B}\u{FF1F}\u{301}", ".\u{301}x", " \u{301}"] {
            #expect(Array(encoder.decode(encoder.encode(name)).utf8) == Array(name.utf8), "\(name.debugDescription)")
        }
    }

    @Test("refused controls and DEL map to control pictures and back")
    func controls() {
        let rules = NameRules(forbiddenCharacters: ["\n", "\t", "\u{7F}", " "])
        let encoder = NameEncoder(rules: rules)
        #expect(encoder.encode("a\nb\tc\u{7F} d") == "a\u{240A}b\u{2409}c\u{2421}\u{2420}d")
        #expect(encoder.decode("a\u{240A}b\u{2409}c\u{2421}\u{2420}d") == "a\nb\tc\u{7F} d")
        #expect(encoder.encode("\u{240A}") == "\u{201B}\u{240A}", "a control picture of a refused control is quoted")
        #expect(encoder.encode("\u{240D}") == "\u{240D}", "that of an accepted one is not")
        #expect(rules.accepts(encoder.encode("a\nb\tc\u{7F} d")))
    }

    @Test(
        "through a server that stores NFC, a name comes back canonically equal, byte for byte when it was NFC",
        arguments: [
            NameRules(forbiddenCharacters: ["?", "\"", "|", "\\", "<"], allowsLeadingSpace: false, allowsDotFiles: false, normalization: .nfc),
            NameRules(forbiddenCharacters: ["?", "<"], allowsTrailingSpace: false, allowsTrailingDot: false, normalization: .nfd),
        ])
    func throughNormalisation(_ rules: NameRules) {
        let alphabet: [String] = [
            "a", "e", ".", " ", "?", "<", "\u{301}", "\u{308}", "\u{323}", "\u{338}", "\u{E9}", "\u{FF1F}", "\u{201B}", "\u{2420}",
            "\u{FF0E}", "\u{FF1C}", "\u{212B}",
        ]
        var random = SplitMix64(seed: 0xC0DE_F00D)
        let encoder = NameEncoder(rules: rules)
        for _ in 0..<3000 {
            var name = ""
            for _ in 0..<(Int(random.next() % 6) + 1) { name += alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if name == "." || name == ".." { continue }
            let back = encoder.decode(rules.stored(encoder.encode(name)))
            #expect(back == name, "\(name.debugDescription) came back as \(back.debugDescription)")
            if Array(rules.stored(name).utf8) == Array(name.utf8) {
                #expect(Array(back.utf8) == Array(name.utf8), "\(name.debugDescription) came back as \(back.debugDescription)")
            }
        }
    }

    @Test("NameRules.accepts")
    func accepts() {
        #expect(strict.accepts("fine name.txt"))
        #expect(!strict.accepts("a?b"))
        #expect(!strict.accepts(" x"))
        #expect(!strict.accepts("x "))
        #expect(!strict.accepts("x."))
        #expect(!strict.accepts(".x"))
        let short = NameRules(maxNameBytes: 4)
        #expect(short.accepts("abcd"))
        #expect(!short.accepts("abcde"))
        #expect(!short.accepts("\u{E9}\u{E9}\u{E9}"), "6 UTF-8 bytes")
    }

    @Test("NameRules.stored applies the declared normalisation")
    func stored() {
        let nfd = "cafe\u{301}"
        let nfc = "caf\u{E9}"
        #expect(Array(NameRules(normalization: .nfc).stored(nfd).utf8) == Array(nfc.utf8))
        #expect(Array(NameRules(normalization: .nfd).stored(nfc).utf8) == Array(nfd.utf8))
        #expect(Array(NameRules(normalization: .preserved).stored(nfd).utf8) == Array(nfd.utf8))
    }
}
