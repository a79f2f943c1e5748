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

extension HostileScenario {
    /// A WebDAV folder listing `file.bin` with `getcontentlength` `size` and `getlastmodified`
    /// `modified`, sent as they are (`-5`, `+5`, `1e3`, digits past `Int64`; year 0, 10000, 99999).
    public static func webdavProperties(size: String, modified: String) -> HostileScenario {
        webdav("a getcontentlength of \(size), a getlastmodified of \(modified)", entries: [.file(fileName, sizeText: size, modifiedText: modified)]) { _, _ in
            .text(404, "not found")
        }
    }

    /// A Nuxeo folder holding one file whose blob `length` is `length` (a JSON value as text:
    /// `"-5"`, `-5`, `1e300`, `"99999999999999999999"`) and whose `lastModified` is `modified`.
    public static func nuxeoProperties(length: String, modified: String) -> HostileScenario {
        HostileScenario(
            "a Nuxeo blob length of \(length), a lastModified of \(modified)",
            route: HostileNuxeo.route { page, pageSize, _ in
                let document = HostileNuxeo.document(
                    uid: "doc-1", title: fileName, path: "/" + fileName, folder: false,
                    extraProperties: #""file:content":{"name":"\#(fileName)","mime-type":"application/octet-stream","length":\#(length)}"#,
                    lastModified: modified)
                return HostileNuxeo.json(200, HostileNuxeo.page([document], index: page, pageSize: pageSize, more: false))
            })
    }
}
