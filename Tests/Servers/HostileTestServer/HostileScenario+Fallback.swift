import Foundation
import NIOConcurrencyHelpers

/// Servers that answer writes and listings in ways RFC 4918 does not (copyparty, chezdav): the
/// adapter must find out what is there rather than believe the status.
extension HostileScenario {
    /// The names the write-quirks server holds: a file `src.txt`, a file `taken.txt`, a folder `dir`.
    public static let quirkyEntries: [HostileDAV.Entry] = [.file("src.txt", size: 3), .file("taken.txt", size: 3), .folder("dir")]

    /// copyparty's answers: `MOVE` and `COPY` with `Overwrite: F` are answered 400 whatever the
    /// destination, `MKCOL` is answered 500, and `PUT` is answered 201 anywhere (it creates the
    /// missing parents); a `PROPFIND` of any other name is 404.
    public static func quirkyWrites() -> HostileScenario {
        webdav("copyparty's 400 to MOVE/COPY, 500 to MKCOL, 201 to PUT into a missing folder", entries: quirkyEntries) { request, _ in
            switch request.method {
            case "MOVE", "COPY": return .text(400, "cannot overwrite")
            case "MKCOL": return .text(500, "mkdir failed")
            case "PUT": return .complete(201)
            default: return .text(404, "not found")
            }
        }
    }

    /// A root listing whose own entry's href is `rootHref` (`http://127.0.0.1:PORT` without its
    /// slash when `nil`) and whose children are `file.bin`, then a response with an empty href
    /// named by `displayname` `named.txt`, then one with an empty href and no `displayname`.
    public static func unusableHrefs(rootHref: String? = nil, emptyEntries: Bool = true) -> HostileScenario {
        HostileScenario("a listing with empty hrefs and a root href without its slash") { request, context in
            switch request.method {
            case "OPTIONS":
                return .complete(200, headers: [("DAV", "1,2"), ("Server", "hostile")])
            case "PROPFIND":
                var xml = #"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"#
                xml += HostileDAV.response(href: rootHref ?? context.url(""), entry: nil)
                if request.header("Depth") != "0" {
                    xml += HostileDAV.response(href: "/" + fileName, entry: .file(fileName, size: 3))
                    if emptyEntries {
                        xml += "<d:response><d:href></d:href><d:propstat><d:prop><d:displayname>named.txt</d:displayname>"
                            + "<d:resourcetype/><d:getcontentlength>4</d:getcontentlength></d:prop>"
                            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                        xml += "<d:response><d:href/><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>5</d:getcontentlength></d:prop>"
                            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                    }
                }
                xml += "</d:multistatus>"
                return .complete(207, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(xml.utf8))
            default:
                return .text(404, "not found")
            }
        }
    }

    /// A WebDAV server holding ``quirkyEntries`` and a folder `made`, answering `MKCOL` 201 and
    /// `DELETE` 204, whose first request with `method` is met by a closed connection and no byte
    /// (chezdav after a `DELETE`); later ones are answered.
    public static func closesFirst(_ method: String) -> HostileScenario {
        let closed = NIOLockedValueBox(false)
        return webdav("the first \(method) meets a closed connection", entries: quirkyEntries + [.folder("made")]) { request, _ in
            switch request.method {
            case "MKCOL": return .complete(201)
            case "DELETE": return .complete(204)
            default: return .text(404, "not found")
            }
        }.closing(first: method, closed)
    }

    /// This scenario, but the first request with `method` gets a closed connection and no byte.
    func closing(first method: String, _ closed: NIOLockedValueBox<Bool>) -> HostileScenario {
        let route = self.route
        return HostileScenario(name) { request, context in
            let first = request.method == method && closed.withLockedValue { was in
                defer { was = true }
                return !was
            }
            return first ? HostileResponse([]) : route(request, context)
        }
    }
}

extension HostileScenario {
    /// A server that refuses every request without a login: 401 with `challenge` as its
    /// `WWW-Authenticate`, and a `DAV` header when `dav` is given.
    public static func signInWanted(dav: String?, challenge: String) -> HostileScenario {
        HostileScenario("401 with \(dav.map { "DAV: \($0)" } ?? "no DAV header") and \(challenge)") { _, _ in
            var headers = [("WWW-Authenticate", challenge), ("Server", "hostile")]
            if let dav { headers.append(("DAV", dav)) }
            return .text(401, "sign in", headers: headers)
        }
    }
}
