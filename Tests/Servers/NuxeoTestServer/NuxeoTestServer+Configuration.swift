import Foundation

extension NuxeoTestServer {
    /// How to start a ``NuxeoTestServer``.
    public struct Configuration: Sendable {
        /// The address to bind.
        public var host = "127.0.0.1"
        /// The port to bind; `0` picks any free port.
        public var port = 0
        /// Accepted Basic credentials, user name → password.
        public var users: [String: String] = ["Administrator": "Administrator"]
        /// The servlet context path (`nuxeo` gives `http://host:port/nuxeo`).
        public var contextPath = "nuxeo"
        /// The page size of `@children` and searches when none is asked.
        public var pageSizeDefault = 50
        /// The largest page size honoured; larger ones are clamped.
        public var maxPageSize = 1000
        /// The most changes `NuxeoDrive.GetChangeSummary` lists; above it the summary
        /// answers `hasTooManyChanges: true` with an empty list (Nuxeo's
        /// `org.nuxeo.drive.document.change.limit`, default 1000).
        public var driveChangeLimit = 1000

        /// The defaults: `127.0.0.1`, any port, `Administrator`/`Administrator`, context `nuxeo`.
        public init() {}
    }
}
