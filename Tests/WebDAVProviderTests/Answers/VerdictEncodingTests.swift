import Foundation
import Testing
import WebDAVProvider

@Suite("WebDAVVerifiedBehaviour encoding")
struct VerdictEncodingTests {
    @Test("refused name characters are written sorted, and the verdict reads back the same")
    func sortedAndRoundTrip() throws {
        var verdict = WebDAVVerifiedBehaviour()
        verdict.refusesIfNoneMatchStar = true
        verdict.keepsPartialUploads = false
        verdict.refusedNameCharacters = ["|", "\\", ":", "*", "#"]
        verdict.nameNormalization = .nfc
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(verdict), as: UTF8.self)
        #expect(text.contains(##""refusedNameCharacters":["#","*",":","\\","|"]"##), "\(text)")
        #expect(try JSONDecoder().decode(WebDAVVerifiedBehaviour.self, from: Data(text.utf8)) == verdict)
        #expect(!text.contains("refusesStaleIfMatch"), "unknown verdicts stay absent")
    }
}
