import Foundation

extension HostileScenario {
    /// A Pydio server listing one file whose `ajxp_modiftime` is `value` (`inf`, `nan`, `1e300`,
    /// `-1e300`, …); the node's `ls` (by `file`) says the same.
    public static func pydioModifiedTime(_ value: String) -> HostileScenario {
        HostileScenario(
            "a Pydio ajxp_modiftime of \(value)",
            route: HostilePydio.route(ls: { _, _ in
                HostilePydio.listing(folder: "/", children: [HostilePydio.Node(path: "/" + fileName, size: "10", modified: value)])
            }))
    }

    /// A Pydio server listing one file whose `bytesize` is `value` (`1e300`, `-5`, `99999999999999999999`).
    public static func pydioSize(_ value: String) -> HostileScenario {
        HostileScenario(
            "a Pydio bytesize of \(value)",
            route: HostilePydio.route(ls: { _, _ in
                HostilePydio.listing(folder: "/", children: [HostilePydio.Node(path: "/" + fileName, size: value)])
            }))
    }
}
