import Foundation

extension PydioTestServer {
    /// Server settings; every property has a default.
    public struct Configuration: Sendable {
        /// Address to bind.
        public var host = "127.0.0.1"
        /// Port to bind (`0` picks a free one).
        public var port = 0
        /// Login → password.
        public var users: [String: String] = ["admin": "admin"]
        /// First path segment of the base URL `http://host:port/<basePath>/`.
        public var basePath = "pydio"
        /// A folder with more children than this is paginated (`PAGINATION_THRESHOLD`).
        public var paginationThreshold = 500
        /// Children per page once paginated (`PAGINATION_NUMBER`).
        public var pageSize = 200
        /// `copy`/`move`/`delete` of more bytes than this answer `<consume_channel/>`
        /// only and are applied about 0.5 s later (8.x background tasks).
        public var backgroundTaskBytes = 10 << 20
        /// Whether background tasks wait for ``PydioTestServer/runBackgroundTasks()`` instead of
        /// running about 0.5 s later: a test that looks between the answer and the change holds
        /// them, so a loaded machine cannot run the change before the test looks.
        public var holdsBackgroundTasks = false
        /// The seed `get_seed` returns. `"-1"` (8.x) means clear-text passwords;
        /// any other value makes `login` expect `md5(md5(password) + seed)` (Pydio 5/6).
        public var seed = "-1"

        /// Whether the search index holds the files' text (`index.lucene`'s `index_content`):
        /// off on a stock install, where "My Files" indexes names only (recording 60).
        public var indexesContent = false
        /// Whether public links are below the base URL (`B/public/<hash>`, a server whose Pydio
        /// is the whole site, as in the second run's recordings 56–57) rather than the server root.
        public var publicLinksBelowBase = false

        /// The defaults: `admin`/`admin` on `127.0.0.1`, any port.
        public init() {}
    }
}
