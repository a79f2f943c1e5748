import Foundation
import ProviderAPI
import Testing

@testable import StrataCLI
import HTTPProviderKit

@Suite("connection flags: deadlines and retries")
struct ConnectionFlagsTests {
    @Test("the flags set the transport's deadlines and the retry policy")
    func flagsApply() throws {
        let options = try GlobalOptions.parse([
            "--connect-timeout", "2.5", "--timeout", "7", "--retries", "0", "--low-speed-limit", "10", "--low-speed-time", "3",
        ])
        let configuration = try options.transportConfiguration()
        #expect(configuration.connectTimeout == .milliseconds(2500))
        #expect(configuration.readTimeout == .seconds(7))
        #expect(configuration.minimumSpeed == MinimumSpeed(bytesPerSecond: 10, window: .seconds(3)))
        #expect(try options.retryPolicy().maxAttempts == 1)
    }

    @Test("without flags the defaults apply")
    func defaults() throws {
        let options = try GlobalOptions.parse([])
        let configuration = try options.transportConfiguration()
        #expect(configuration.connectTimeout == .seconds(10))
        #expect(configuration.readTimeout == .seconds(30))
        #expect(configuration.minimumSpeed == MinimumSpeed(bytesPerSecond: 1024, window: .seconds(60)))
        #expect(try options.retryPolicy().maxAttempts == 4)
    }

    @Test("--low-speed-limit 0 turns the speed check off")
    func speedOff() throws {
        let options = try GlobalOptions.parse(["--low-speed-limit", "0"])
        #expect(try options.transportConfiguration().minimumSpeed == nil)
    }

    @Test("negative, non-numeric or absurd values are usage errors", arguments: [
        ["--timeout", "-1"], ["--timeout", "abc"], ["--timeout", "0"], ["--timeout", "nan"], ["--timeout", "inf"],
        ["--connect-timeout", "-3"], ["--retries", "-1"], ["--retries", "1.5"], ["--retries", "x"],
        ["--low-speed-limit", "-5"], ["--low-speed-time", "0"], ["--low-speed-time", "1e300"],
    ])
    func invalid(_ arguments: [String]) {
        #expect(throws: (any Error).self) { _ = try GlobalOptions.parse(arguments) }
    }

    @Test("a retry is printed the way the CLI says it")
    func retryLine() {
        let notice = RetryNotice(request: "GET /path", attempt: 2, maxAttempts: 4, reason: "connection refused", delay: .milliseconds(400))
        #expect("strata: \(notice.description)" == "strata: retrying GET /path in 0.4 s (attempt 2 of 4): connection refused")
    }
}
