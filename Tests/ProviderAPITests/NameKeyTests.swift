import Foundation
import ProviderAPI
import Testing

@Suite("NameKey: a name's identity on a server, by bytes")
struct NameKeyTests {
    static let nfc = "caf\u{E9}.txt"
    static let nfd = "cafe\u{301}.txt"

    @Test("byte-exact and case-sensitive: NFC and NFD, A and a are four names, though Swift's String calls the twins equal")
    func exact() {
        let rules = NameRules()
        #expect(Self.nfc == Self.nfd)  // why a String key loses one of them
        #expect(rules.key(Self.nfc) != rules.key(Self.nfd))
        #expect(Set([rules.key(Self.nfc), rules.key(Self.nfd), rules.key("A.txt"), rules.key("a.txt")]).count == 4)
        #expect(rules.key(Self.nfd).bytes == Array(Self.nfd.utf8))
        #expect(rules.identityDescription == "case-sensitive, byte-exact")
    }

    @Test("a normalising server makes the twins one name, stored in its form; a case-insensitive one folds case")
    func folded() {
        let nfc = NameRules(normalization: .nfc)
        #expect(nfc.key(Self.nfc) == nfc.key(Self.nfd) && nfc.key(Self.nfd).bytes == Array(Self.nfc.utf8))
        let nfd = NameRules(normalization: .nfd)
        #expect(nfd.key(Self.nfc).bytes == Array(Self.nfd.utf8))
        let insensitive = NameRules(caseSensitive: false)
        #expect(insensitive.same("A.txt", "a.txt") && !insensitive.same(Self.nfc, Self.nfd))
        #expect(insensitive.same("CAF\u{C9}.txt", Self.nfc))
        let apfs = NameRules(caseSensitive: false, normalizationInsensitive: true)
        #expect(apfs.same("CAFE\u{301}.TXT", Self.nfc))
        #expect(apfs.identityDescription == "case-insensitive, NFC and NFD are one name")
        #expect(NameRules(normalization: .nfc, caseSensitive: false).identityDescription == "case-insensitive, NFC")
    }

    @Test("keys sort by bytes: B before a, NFD's e + U+0301 before NFC's U+00E9")
    func order() {
        #expect(NameKey(exact: "B") < NameKey(exact: "a"))
        #expect(NameKey(exact: Self.nfd) < NameKey(exact: Self.nfc))
        #expect(NameKey(exact: Self.nfd).description.unicodeScalars.elementsEqual(Self.nfd.unicodeScalars))
    }
}
