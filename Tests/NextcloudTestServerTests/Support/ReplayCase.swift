import Foundation
@testable import NextcloudTestServer

/// One recorded response, the server state and request that reproduce it, and what may differ.
struct ReplayCase: Sendable {
    enum Kind: Sendable {
        /// An XML body file.
        case xml
        /// A JSON body file.
        case json
        /// An ownCloud iOS SDK log block (`.http`) whose body is XML.
        case loggedXML
    }

    var fixture: String
    var configuration = NextcloudTestServer.Configuration()
    var status: Int
    /// The Content-Type the server must send (compared up to `;`, case-insensitive).
    var contentType: String
    var kind: Kind = .xml
    /// Element names or keys whose values change between runs.
    var volatile: Set<String> = []
    /// Element names or keys left out on both sides, each a documented difference.
    var ignored: Set<String> = []
    /// Compare only the first N children of the root (an EXCERPT recording).
    var maxChildren: Int?
    /// Sets up the state and sends the recorded request.
    var act: @Sendable (NextcloudTestServer, DAVClient) async throws -> TestResponse

    /// The default volatile names of WebDAV answers.
    static let davVolatile: Set<String> = ["d:getlastmodified", "d:getetag", "oc:fileid", "oc:id"]

    /// Horst, the Nextcloud 18 user of the nextcloud-node-client recordings.
    static let horst = NextcloudTestServer.Configuration(
        users: ["horst": "pw"], displayNames: ["horst": "Horst-Thorsten Borstenson"])
    static let ownCloudAdmin = NextcloudTestServer.Configuration(flavor: .owncloud, users: ["admin": "admin"])
}
