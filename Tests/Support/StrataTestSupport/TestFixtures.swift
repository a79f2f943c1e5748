import Foundation

/// The recorded real-server answers in `Tests/Fixtures`, inside the repository, so that a clean
/// clone's `swift test` finds them.
///
/// They were copied byte for byte from the project's recordings (`nextcloud/`, `nuxeo/`,
/// `pydio/live-8.2.5/` with its `REQUESTS.md`, `pydio/sdk-objc/`); each folder's `SOURCES`,
/// `REQUESTS.md` or `NAMES.md` says where its answers come from. Every test target finds them
/// through this one place (`scripts/fuzz` seeds from the same folder). A missing folder or file
/// is a test failure, never a skip.
public enum TestFixtures {
    /// The package root, found from this file's path
    /// (`…/Tests/Support/StrataTestSupport/TestFixtures.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/Support/StrataTestSupport
        .deletingLastPathComponent()  // …/Tests/Support
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the package root
        .standardizedFileURL

    /// `Tests/Fixtures`: every recording.
    public static let root: URL = packageRoot.appendingPathComponent("Tests/Fixtures", isDirectory: true)

    /// A folder of recordings below ``root``, such as `nextcloud` or `pydio/live-8.2.5`.
    public static func folder(_ relative: String) -> URL {
        root.appendingPathComponent(relative, isDirectory: true).standardizedFileURL
    }
}
