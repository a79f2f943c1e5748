import Foundation
import ProviderAPI
import Testing
import HTTPProviderKit

/// Sun, 06 Nov 1994 08:49:37 GMT, the example of RFC 9110.
private let rfcExample = Date(timeIntervalSince1970: 784_111_777)

@Suite("HTTPDate")
struct HTTPDateTests {
    @Test("the three HTTP date forms parse to the same instant", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "  Sun, 06 Nov 1994 08:49:37 GMT  ", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
    ])
    func parses(_ text: String) {
        #expect(HTTPDate.parse(text) == rfcExample, "\(text.debugDescription)")
    }

    @Test("dates seen in the recorded WebDAV answers")
    func recorded() {
        #expect(HTTPDate.parse("Mon, 31 Aug 2020 06:40:13 GMT") == Date(timeIntervalSince1970: 1_598_856_013))
        #expect(HTTPDate.parse("Thu, 13 Feb 2025 08:09:44 GMT") == Date(timeIntervalSince1970: 1_739_434_184))
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 23:59:59 GMT") == Date(timeIntervalSince1970: 1_709_251_199))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    }

    @Test("garbage is nil", arguments: [
        "", "yesterday", "Sun, 06 Nov 1994", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
        "Sun, 32 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z", "Sun, 06 Nov 1994 08:49 GMT",
    ])
    func garbage(_ text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text.debugDescription)")
    }

    @Test("format is RFC 1123 and round-trips", arguments: [
        0, 784_111_777, 951_782_400, 1_709_251_199, 1_598_856_013, 4_102_444_800, -86_400, 253_402_300_799,
    ])
    func formatRoundTrip(_ seconds: Int) {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let text = HTTPDate.format(date)
        #expect(HTTPDate.parse(text) == date, "\(text)")
        #expect(text.hasSuffix(" GMT"))
        #expect(text.count == 29, "\(text)")
    }

    @Test("format of the RFC example")
    func formatExample() {
        #expect(HTTPDate.format(rfcExample) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1_709_251_199)) == "Thu, 29 Feb 2024 23:59:59 GMT")
    }

    @Test("dates read from UTF-8 bytes agree with dates read from strings, valid or not")
    func fromBytes() {
        var texts: [[UInt8]] = [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "  Sun, 06 Nov 1994 08:49:37 GMT  ", "\u{A0}Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Mon, 31 Aug 2020 06:40:13 GMT", "Thu, 29 Feb 2024 23:59:59 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 10000 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT",
            "Sun, 06 Nov 999999 08:49:37 GMT", "Dim, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT",
            "", "yesterday", "Sun, 06 Nov 1994", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37 GMTX",
            "Sun, 06 Nov 1994 08:49:37 CET", "é, 06 Nov 1994 08:49:37 GMT", "Sé, 06 Nov 1994 08:49:37 GMT", "日, 06 Nov 1994 08:49:37 GMT",
        ].map { Array($0.utf8) }
        // Bytes that are not UTF-8, in the unchecked day name and elsewhere: the string path reads them as U+FFFD.
        let rest = Array(", 06 Nov 1994 08:49:37 GMT".utf8)
        texts += [[0xFF] + rest, [0xFF, 0x53, 0x75] + rest, [0x53, 0x75, 0x6E, 0xFF] + rest, [0xC3] + rest, [0x53, 0xC3, 0x75] + rest]
        texts.append(Array("Sun, 06 N".utf8) + [0xFF] + Array("v 1994 08:49:37 GMT".utf8))
        texts.append(Array("Sun, 06 Nov 1994 08:49:37 GM".utf8) + [0xFF])
        for bytes in texts {
            let fromString = HTTPDate.parse(String(decoding: bytes, as: UTF8.self))
            let fromBytes = bytes.withUnsafeBufferPointer { HTTPDate.parse(utf8: $0) }
            #expect(fromBytes == fromString, "\(bytes)")
        }
        #expect(Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8).withUnsafeBufferPointer { HTTPDate.parse(utf8: $0) } == rfcExample)
        // One byte that is not UTF-8 as the day name: the string reads it as U+FFFD (three bytes), so both read a date.
        #expect(([0xFF] + rest).withUnsafeBufferPointer { HTTPDate.parse(utf8: $0) } == rfcExample)
    }

    @Test("ISO 8601 with and without fractional seconds")
    func iso8601() throws {
        #expect(HTTPDate.parseISO8601("2023-07-24T16:30:44Z") == Date(timeIntervalSince1970: 1_690_216_244))
        let fractional = try #require(HTTPDate.parseISO8601("2023-07-24T16:30:44.250Z"))
        #expect(abs(fractional.timeIntervalSince1970 - 1_690_216_244.25) < 0.0005)
        #expect(HTTPDate.parseISO8601("1970-01-01T00:00:00+00:00") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parseISO8601("2023-07-24T18:30:44+02:00") == Date(timeIntervalSince1970: 1_690_216_244))
        #expect(HTTPDate.parseISO8601("not a date") == nil)
        #expect(HTTPDate.parseISO8601("Sun, 06 Nov 1994 08:49:37 GMT") == nil)
    }
}
