import Foundation
import Logging
import Testing

@testable import StrataCLI

/// `-v`/`--verbose` counted: none logs warnings only (what the command line printed before),
/// one the decisions (`debug`), two each request too (`trace`).
@Suite("strata -v and -vv")
struct VerbosityTests {
    @Test("the log level each count of -v sets", arguments: [
        ([String](), Logger.Level.warning), (["-v"], .debug), (["--verbose"], .debug), (["-vv"], .trace),
        (["-v", "-v"], .trace), (["--verbose", "--verbose", "--verbose"], .trace),
    ])
    func levels(arguments: [String], level: Logger.Level) throws {
        let options = try GlobalOptions.parse(arguments)
        #expect(options.logger.logLevel == level)
    }
}
