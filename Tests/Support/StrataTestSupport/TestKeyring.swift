import Foundation
import Testing

/// The throw-away Secret Service that `scripts/test` and `scripts/with-servers` start
/// (gnome-keyring on a session bus of their own, `scripts/lib/servers.sh`): they export its
/// `DBUS_SESSION_BUS_ADDRESS` and `STRATA_TEST_KEYRING=1`.
///
/// A test that writes into the keyring carries the `.testKeyring` trait: a plain `swift test`
/// skips it (never writing into the keyring of the developer's desktop); under the scripts, which
/// set `STRATA_LIVE_REQUIRED=1`, a missing keyring is a failure, never a skip.
public enum TestKeyring {
    /// Whether the keyring tests run: a test keyring is there, or the live suites are required.
    public static var suitesRun: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["STRATA_TEST_KEYRING"] == "1" || environment["STRATA_LIVE_REQUIRED"] == "1"
    }

    /// Records an issue and throws unless the test keyring is there.
    public static func require(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["STRATA_TEST_KEYRING"] == "1", let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else {
            Issue.record(
                """
                no test keyring (STRATA_TEST_KEYRING=1 and DBUS_SESSION_BUS_ADDRESS unset): run the tests with scripts/test or \
                scripts/with-servers, which start gnome-keyring on a session bus of their own
                """,
                sourceLocation: sourceLocation)
            throw Missing()
        }
    }

    struct Missing: Error {}

    /// Why a keyring test did not run, shown by `swift test` beside the skipped test.
    public static let notRunReason: Comment = """
        writes into a Secret Service: run it with scripts/test, or scripts/with-servers swift test --filter …, \
        which start a throw-away gnome-keyring and set STRATA_LIVE_REQUIRED=1 (a missing keyring then fails)
        """
}

extension Trait where Self == ConditionTrait {
    /// For a test that needs the test keyring (``TestKeyring``): skipped, with the way to run it,
    /// when it is neither present nor required; run otherwise.
    public static var testKeyring: Self {
        .enabled(if: TestKeyring.suitesRun, TestKeyring.notRunReason)
    }
}
