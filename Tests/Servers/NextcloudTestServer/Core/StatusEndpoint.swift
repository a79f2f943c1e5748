import Foundation
import Hummingbird

/// `GET /status.php`, unauthenticated.
struct StatusEndpoint {
    let core: ServerCore

    func respond(_ req: ServerRequest) -> Response {
        Reply.json(OCSValue.object(Self.fields(core)).json(), headers: [("Access-Control-Allow-Origin", "*")])
    }

    /// The status object: Nextcloud 28 (with `extendedSupport`) or ownCloud 10.1.
    static func fields(_ core: ServerCore) -> [(String, OCSValue)] {
        let maintenance = core.faults.maintenance
        if core.isNextcloud {
            return [
                ("installed", .bool(true)), ("maintenance", .bool(maintenance)), ("needsDbUpgrade", .bool(false)),
                ("version", .string(Versions.nextcloud.full)), ("versionstring", .string(Versions.nextcloud.string)),
                ("edition", .string("")), ("productname", .string("Nextcloud")), ("extendedSupport", .bool(false)),
            ]
        }
        return [
            ("installed", .bool(true)), ("maintenance", .bool(maintenance)), ("needsDbUpgrade", .bool(false)),
            ("version", .string(Versions.owncloud.full)), ("versionstring", .string(Versions.owncloud.string)),
            ("edition", .string("Community")), ("productname", .string("ownCloud")),
        ]
    }
}

/// The versions the server reports.
enum Versions {
    struct Version {
        var major: Int
        var minor: Int
        var micro: Int
        var full: String
        var string: String
    }

    static let nextcloud = Version(major: 28, minor: 0, micro: 4, full: "28.0.4.1", string: "28.0.4")
    static let owncloud = Version(major: 10, minor: 1, micro: 0, full: "10.1.0.4", string: "10.1.0")
}
