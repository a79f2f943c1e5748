import Foundation

extension HostileScenario {
    /// A WebDAV server whose `GET` (and `PUT`) are answered `status` with `Location: location`,
    /// taken as is: another origin, a port above 65535, another scheme.
    public static func redirect(location: String, status: Int = 302) -> HostileScenario {
        webdav("a \(status) to \(location)") { _, _ in
            .complete(status, headers: [("Location", location), ("Content-Type", "text/plain")], body: Array("moved".utf8))
        }
    }

    /// A WebDAV server redirecting `GET` and `PUT` to the same path on `other` (another origin).
    public static func redirect(to other: URL, status: Int = 302) -> HostileScenario {
        webdav("a \(status) to \(other)") { request, _ in
            let target = other.absoluteString.trimmingSuffix("/") + request.path
            return .complete(status, headers: [("Location", target), ("Content-Type", "text/plain")], body: Array("moved".utf8))
        }
    }

    /// A `GET` redirected to a `Location` whose port is 99999.
    public static func redirectToInvalidPort(_ port: Int = 99999) -> HostileScenario {
        redirect(location: "http://127.0.0.1:\(port)/" + fileName)
    }

    /// A WebDAV server answering `PUT` with a 307 to the same path on `other`.
    public static func uploadRedirect(to other: URL) -> HostileScenario {
        webdav("a PUT answered by a 307 to \(other)") { request, _ in
            guard request.method == "PUT" else { return .text(404, "not found") }
            let target = other.absoluteString.trimmingSuffix("/") + request.path
            return .complete(307, headers: [("Location", target), ("Content-Type", "text/plain")], body: Array("moved".utf8))
        }
    }

    /// A Pydio server answering the login form (`POST get_action=login`) with a 307 to the same
    /// endpoint on `other`, which (as a second ``HostileServer`` with ``pydioListing``) would
    /// happily take it.
    public static func pydioLoginRedirect(to other: URL) -> HostileScenario {
        HostileScenario(
            "a Pydio login answered by a 307 to \(other)",
            route: HostilePydio.route(
                login: { request, _ in
                    let target = other.absoluteString.trimmingSuffix("/") + request.path
                    return .complete(307, headers: [("Location", target), ("Content-Type", "text/plain")], body: Array("moved".utf8))
                },
                ls: { _, _ in HostilePydio.listing(folder: "/", children: []) }))
    }

    /// A well-behaved Pydio server listing `/file.bin`.
    public static let pydioListing = HostileScenario(
        "a Pydio listing",
        route: HostilePydio.route(ls: { _, _ in
            HostilePydio.listing(folder: "/", children: [HostilePydio.Node(path: "/" + fileName, size: String(fileSize))])
        }))
}

extension String {
    /// The string without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

extension HostileScenario {
    /// A WebDAV server redirecting every `GET` to the same path at the URL `other()` gives at the
    /// time of the request (so two servers can send a request back and forth).
    public static func redirectLater(to other: @escaping @Sendable () -> URL?) -> HostileScenario {
        webdav("a 302 to another origin, decided per request") { request, context in
            let base = other()?.absoluteString.trimmingSuffix("/") ?? context.url("")
            return .complete(302, headers: [("Location", base + request.path), ("Content-Type", "text/plain")], body: Array("moved".utf8))
        }
    }
}
