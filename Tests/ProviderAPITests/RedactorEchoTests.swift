import Foundation
import ProviderAPI
import Testing

@Suite("Redactor: secrets a server quotes back")
struct RedactorEchoTests {
    @Test("an Authorization header quoted back is masked", arguments: [
        "Authorization: Basic dXNlcjpwYXNz",
        "bad request: authorization: Basic dXNlcjpwYXNz (refused)",
        "Authorization: Digest username=\"ann\", response=\"dXNlcjpwYXNz\"",
        "Proxy-Authorization:Bearer dXNlcjpwYXNz",
        "X-Authentication-Token: dXNlcjpwYXNz",
        "Cookie: session=dXNlcjpwYXNz; other=1",
        "the header was Basic dXNlcjpwYXNz",
    ])
    func headerEcho(_ text: String) {
        let redacted = Redactor.redact(text)
        #expect(!redacted.contains("dXNlcjpwYXNz"), "\(redacted)")
        #expect(redacted.contains(Redactor.mask))
    }

    @Test("a form or JSON body quoted back has its secret values masked")
    func bodyEcho() {
        let form = Redactor.redact("password=hunter2&user=ann")
        #expect(!form.contains("hunter2") && form.contains("user=ann"), "\(form)")
        let json = Redactor.redact(#"{"user":"ann","password" : "hun\"ter2","x":1}"#)
        #expect(!json.contains("hun") && json.contains(#""user":"ann""#) && json.contains(#""x":1"#), "\(json)")
    }

    @Test("plain text stays as it is")
    func plain() {
        #expect(Redactor.redact("the folder /Reports/2024 does not exist") == "the folder /Reports/2024 does not exist")
    }
}

@Suite("UnixTime: checked time conversions")
struct UnixTimeTests {
    @Test("non-finite and absurd times are not dates", arguments: [
        Double.infinity, -Double.infinity, Double.nan, 1e300, -1e300, 253_402_300_800, -62_135_596_801,
        Double.greatestFiniteMagnitude,
    ])
    func refused(_ seconds: Double) {
        #expect(UnixTime.date(seconds: seconds) == nil)
        #expect(UnixTime.date(milliseconds: seconds * 1000) == nil)
    }

    @Test("times in range are dates", arguments: [0, 1_795_315_138, -1, 253_402_300_799, -62_135_596_800] as [Double])
    func accepted(_ seconds: Double) {
        #expect(UnixTime.date(seconds: seconds)?.timeIntervalSince1970 == seconds)
    }

    @Test("text is parsed leniently and checked", arguments: [
        ("1795315138", true), (" 12.5 ", true), ("inf", false), ("nan", false), ("1e300", false), ("", false), ("abc", false),
    ])
    func parsing(_ text: String, _ valid: Bool) {
        #expect((UnixTime.date(parsing: text) != nil) == valid)
    }

    // Seconds rather than Dates as arguments: Date's own description traps on a non-finite time.
    @Test("clamping never traps, whatever the Date", arguments: [
        Date.distantFuture.timeIntervalSince1970, Date.distantPast.timeIntervalSince1970, 1e300, -1e300,
        .infinity, -.infinity, .nan, 0,
    ] as [Double])
    func clamping(_ time: Double) {
        let date = Date(timeIntervalSince1970: time)
        let seconds = UnixTime.clampedSeconds(date)
        #expect((UnixTime.earliest...UnixTime.latest).contains(seconds))
        let millis = UnixTime.clampedMilliseconds(date)
        #expect(millis / 1000 >= UnixTime.earliest && millis / 1000 <= UnixTime.latest)
    }
}
