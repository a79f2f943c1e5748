import Foundation
import StrataTestSupport
import Testing

/// The parsing tests, grouped so that `swift test --filter WebDAVProviderTests.Parsing` runs them all.
@Suite("WebDAV parsing") enum Parsing {}

/// The recorded server answers in `Tests/Fixtures/nextcloud/` (``TestFixtures``).
///
/// A missing folder or file is a test failure, never a skip.
enum Fixtures {
    static let folder: URL = TestFixtures.folder("nextcloud")

    /// Every multistatus recording the parsing tests know, with what each must contain.
    static let multistatusNames: [String] = [
        "propfind-allprop-webdav-root-quota-nc18.xml",
        "propfind-depth0-dav-files-folder-favorite-linkshared-nc27.xml",
        "propfind-depth0-dav-files-received-share-nc30.xml",
        "propfind-depth0-dav-files-root-nc27.xml",
        "propfind-depth0-webdav-file-nc18.xml",
        "propfind-depth0-webdav-folder-link-shared-nc18.xml",
        "propfind-depth0-webdav-folder-nc18.xml",
        "propfind-depth1-dav-files-oc10-admin.xml",
        "propfind-depth1-dav-files-oc10-checksums.xml",
        "propfind-depth1-dav-files-oc10-manyfiles-EXCERPT.xml",
        "propfind-nodepth-webdav-folder-with-children-nc18.xml",
        "propfind-trashbin-oc10-docs.xml",
        "proppatch-207-403-424-oc10.xml",
        "report-filter-files-systemtags-nc18.xml",
        "report-search-files-oc10-docs.xml",
    ]

    /// The names in the folder that are multistatus recordings: `propfind-*`, `report-*` and the PROPPATCH one.
    static func discoveredMultistatusNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("propfind-") || $0.hasPrefix("report-") || $0 == "proppatch-207-403-424-oc10.xml" }
            .sorted()
    }

    /// The bytes of a recording; fails the test if it is missing.
    static func data(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        let url = folder.appendingPathComponent(name)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "fixture \(url.path) is missing: the recordings must be at Tests/Fixtures/nextcloud/", sourceLocation: sourceLocation)
        return try Data(contentsOf: url)
    }
}
