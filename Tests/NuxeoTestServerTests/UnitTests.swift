import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Building blocks")
struct UnitTests {
    @Test("MD5 test vectors (RFC 1321 and a multi-block input)")
    func md5() {
        #expect(MD5.hex(Data()) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Data("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex(Data("The quick brown fox jumps over the lazy dog".utf8)) == "9e107d9d372bb6826bd81d3542a419d6")
        #expect(MD5.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)) == "7707d6ae4e027c70eea2a935c2296f21")
    }

    @Test("dates: 3 fraction digits with Z; lenient parsing of NXQL and W3C forms")
    func dates() {
        let millis: Int64 = 1_704_103_200_007
        #expect(DateCodec.w3c(millis) == "2024-01-01T10:00:00.007Z")
        #expect(DateCodec.parse("2024-01-01T10:00:00.007Z") == millis)
        #expect(DateCodec.parse("2024-01-01 10:00:00.007") == millis)
        #expect(DateCodec.parse("2024-01-01T11:00:00.007+01:00") == millis)
        #expect(DateCodec.parse("2024-01-01") == 1_704_067_200_000)
        #expect(DateCodec.parse("2024-13-01") == nil)
        #expect(DateCodec.http(millis) == "Mon, 01 Jan 2024 10:00:00 GMT")
    }

    @Test("ranges: single only, clamped end, nothing past the end")
    func ranges() {
        #expect(NuxeoRouter.parseRange("bytes=0-9", length: 100) == 0..<10)
        #expect(NuxeoRouter.parseRange("bytes=90-200", length: 100) == 90..<100)
        #expect(NuxeoRouter.parseRange("bytes=-10", length: 100) == 90..<100)
        #expect(NuxeoRouter.parseRange("bytes=0-1,3-4", length: 100) == nil)
        #expect(NuxeoRouter.parseRange("bytes=100-", length: 100) == nil)
        #expect(NuxeoRouter.parseRange("items=0-1", length: 100) == nil)
    }

    @Test("LIKE patterns")
    func like() {
        #expect(LikePattern("a%c", caseInsensitive: false).matches("abbbc"))
        #expect(LikePattern("a_c", caseInsensitive: false).matches("abc"))
        #expect(!LikePattern("a_c", caseInsensitive: false).matches("abbc"))
        #expect(LikePattern("100\\%", caseInsensitive: false).matches("100%"))
        #expect(!LikePattern("100\\%", caseInsensitive: false).matches("1000"))
        #expect(LikePattern("ab%", caseInsensitive: true).matches("abX".lowercased()))
    }
}
