import Foundation
import ProviderAPI
import Testing
import TransferEngine

@testable import StrataCLI

/// How `copy`, `sync` and `check` print a mapped name.
@Suite("mapped names as printed")
struct NameMappingLineTests {
    @Test("an encoded name, a decoded look-alike, and an NFD → NFC rename, whose scalars are shown")
    func lines() throws {
        let encoded = NameMapping(relativePath: ItemPath("a/what?.txt"), sourceName: "what?.txt", destinationName: "what\u{FF1F}.txt")
        #expect(TreeTransferPrinter.line(for: encoded) == "renamed a/what?.txt → what\u{FF1F}.txt (the destination refuses the name)")
        let decoded = NameMapping(
            relativePath: ItemPath("\u{FF0E}config"), sourceName: "\u{FF0E}config", destinationName: ".config", reason: .decoded)
        #expect(TreeTransferPrinter.line(for: decoded) == "renamed \u{FF0E}config → .config (the source's look-alike restored)")
        let normalized = NameMapping(
            relativePath: ItemPath("nai\u{308}ve.txt"), sourceName: "nai\u{308}ve.txt", destinationName: "na\u{EF}ve.txt", reason: .normalized)
        #expect(
            TreeTransferPrinter.line(for: normalized)
                == "renamed nai\u{308}ve.txt → na\u{EF}ve.txt (the destination stores another Unicode normalisation: nai\\u{308}ve.txt → na\\u{EF}ve.txt)")
    }
}
