import ProviderAPI
import Testing

@Suite("entity tags compared as HTTP compares them")
struct ETagTests {
    @Test("weak comparison ignores W/, strong comparison needs two strong equal tags")
    func comparisons() {
        #expect(ETag.isWeak(#"W/"4-abc""#))
        #expect(!ETag.isWeak(#""4-abc""#))
        #expect(ETag.opaque(#"W/"4-abc""#) == #""4-abc""#)
        #expect(ETag.weaklyEqual(#"W/"4-abc""#, #""4-abc""#))
        #expect(ETag.weaklyEqual(#"W/"4-abc""#, #"W/"4-abc""#))
        #expect(!ETag.weaklyEqual(#"W/"4-abc""#, #""4-abd""#))
        #expect(ETag.stronglyEqual(#""4-abc""#, #""4-abc""#))
        #expect(!ETag.stronglyEqual(#"W/"4-abc""#, #""4-abc""#))
        #expect(!ETag.stronglyEqual(#"W/"4-abc""#, #"W/"4-abc""#))
    }
}
