import Foundation
@testable import NextcloudTestServer

/// The WebDAV recordings the server reproduces (PROPFIND, PROPPATCH, Sabre errors).
enum DAVReplayCases {
    static let xmlType = "application/xml"

    static var all: [ReplayCase] {
        [
            ReplayCase(
                fixture: "propfind-depth0-webdav-folder-nc18.xml", configuration: ReplayCase.horst, status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile
            ) { server, client in
                server.seedFolder(user: "horst", path: "ncncTest/share1")
                return try await client.send(
                    "PROPFIND", "/remote.php/webdav/ncncTest/share1", body: try Fixtures.data("req-propfind-body-nncclient-details.xml"))
            },
            ReplayCase(
                fixture: "propfind-depth0-webdav-file-nc18.xml", configuration: ReplayCase.horst, status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile
            ) { server, client in
                server.seedFile(user: "horst", path: "ncncTest/share1/file3.txt", contents: Data("this is file3 body!".utf8))
                return try await client.send(
                    "PROPFIND", "/remote.php/webdav/ncncTest/share1/file3.txt",
                    body: try Fixtures.data("req-propfind-body-nncclient-details.xml"))
            },
            ReplayCase(
                fixture: "propfind-nodepth-webdav-folder-with-children-nc18.xml", configuration: ReplayCase.horst, status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile
            ) { server, client in
                for folder in ["test/a", "test/base09", "test/base10"] { server.seedFolder(user: "horst", path: folder) }
                server.seedFile(user: "horst", path: "test/test07/file.txt", contents: Data("nineteen bytes long".utf8))
                return try await client.send(
                    "PROPFIND", "/remote.php/webdav/test", body: try Fixtures.data("req-propfind-body-nncclient-details.xml"))
            },
            ReplayCase(
                fixture: "propfind-allprop-webdav-root-quota-nc18.xml", configuration: ReplayCase.horst, status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile.union(["d:quota-available-bytes"])
            ) { server, client in
                server.seedFolder(user: "horst", path: "my Public Share")
                server.seedFolder(user: "horst", path: "myOublicShare")
                return try await client.send("PROPFIND", "/remote.php/webdav/")
            },
            ReplayCase(
                fixture: "propfind-depth0-dav-files-root-nc27.xml",
                configuration: NextcloudTestServer.Configuration(users: ["user1": "pw"]), status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile
            ) { server, client in
                server.seedFile(user: "user1", path: "Readme.md", contents: Data(repeating: 0x61, count: 171))
                return try await client.send(
                    "PROPFIND", "/remote.php/dav/files/user1/", headers: [("Depth", "0")],
                    text: RequestBodies.propfind(nextcloudFilesProps))
            },
            ReplayCase(
                fixture: "propfind-depth1-dav-files-oc10-admin.xml", configuration: ReplayCase.ownCloudAdmin, status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile
            ) { server, client in
                server.seedFile(user: "admin", path: "Documents/Example.odt", contents: Data(count: 36227))
                server.seedFile(user: "admin", path: "Photos/Paris.jpg", contents: Data(count: 678_556))
                server.seedFile(user: "admin", path: "ownCloud Manual.pdf", contents: Data(count: 5_094_383))
                return try await client.send("PROPFIND", "/remote.php/dav/files/admin/", headers: [("Depth", "1")], text: RequestBodies.ownCloudItem)
            },
            ReplayCase(
                fixture: "propfind-depth1-dav-files-oc10-checksums.xml", configuration: ReplayCase.ownCloudAdmin, status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile.union(["oc:checksum"])
            ) { server, client in
                server.seedFile(user: "admin", path: "Documents/Example.odt", contents: Data(count: 36227))
                server.seedFile(user: "admin", path: "Photos/Paris.jpg", contents: Data(count: 678_556))
                server.seedFile(user: "admin", path: "ownCloud Manual.pdf", contents: Data(count: 5_097_391))
                let body = RequestBodies.propfind([
                    "d:resourcetype", "d:getlastmodified", "d:creationdate", "d:getcontentlength", "d:displayname",
                    "d:getcontenttype", "d:getetag", "d:quota-available-bytes", "d:quota-used-bytes", "oc:size", "oc:id",
                    "oc:permissions", "oc:checksums",
                ])
                return try await client.send("PROPFIND", "/remote.php/dav/files/admin/", headers: [("Depth", "1")], text: body)
            },
            ReplayCase(
                fixture: "propfind-depth1-dav-files-oc10-manyfiles-EXCERPT.xml",
                configuration: NextcloudTestServer.Configuration(flavor: .owncloud, users: ["manyfiles": "pw"], quotaBytes: 5_362_978_198 + 100_000),
                status: 207, contentType: xmlType, volatile: ReplayCase.davVolatile, maxChildren: 4
            ) { server, client in
                for index in 0..<1000 {
                    server.seedFile(user: "manyfiles", path: "1000/file.\(index).txt", contents: Data(repeating: 0x30, count: 100))
                }
                let body = RequestBodies.propfind([
                    "d:resourcetype", "d:getlastmodified", "d:getcontentlength", "d:getcontenttype", "d:getetag",
                    "d:quota-available-bytes", "d:quota-used-bytes", "oc:size", "oc:id", "oc:permissions", "oc:favorite",
                ])
                return try await client.send("PROPFIND", "/remote.php/dav/files/manyfiles/1000/", headers: [("Depth", "1")], text: body)
            },
            ReplayCase(
                fixture: "proppatch-207-403-424-oc10.xml", configuration: ReplayCase.ownCloudAdmin, status: 207, contentType: xmlType
            ) { server, client in
                server.seedFile(user: "admin", path: "ownCloud Manual.pdf", contents: Data("pdf".utf8))
                let body = """
                    <?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:set><d:prop>\
                    <d:getlastmodified>Fri, 23 Feb 2018 11:52:05 GMT</d:getlastmodified><oc:favorite>1</oc:favorite>\
                    </d:prop></d:set></d:propertyupdate>
                    """
                return try await client.send("PROPPATCH", "/remote.php/dav/files/admin/ownCloud%20Manual.pdf", text: body)
            },
            ReplayCase(
                fixture: "propfind-trashbin-oc10-docs.xml", configuration: ReplayCase.ownCloudAdmin, status: 207, contentType: xmlType,
                // Entries are named by file ids; the deletion times are the test's own.
                volatile: ["d:href", "oc:trashbin-delete-datetime"]
            ) { server, client in
                let files = "/remote.php/dav/files/admin/"
                server.seedFile(user: "admin", path: "git-image-one.png", contents: Data(count: 1_517_914))
                _ = try await client.send("DELETE", files + "git-image-one.png")
                server.seedFile(user: "admin", path: "git-image-one.png", contents: Data(count: 1_067_792))
                _ = try await client.send("DELETE", files + "git-image-one.png")
                server.seedFile(user: "admin", path: "Level 1/Level 2/Level 3/test.txt", contents: Data(count: 34))
                _ = try await client.send("DELETE", files + "Level%201")
                let body = RequestBodies.propfind([
                    "oc:trashbin-original-filename", "oc:trashbin-original-location", "oc:trashbin-delete-datetime",
                    "d:getcontentlength", "d:resourcetype",
                ])
                return try await client.send("PROPFIND", "/remote.php/dav/trash-bin/admin/", headers: [("Depth", "infinity")], text: body)
            },
            ReplayCase(
                fixture: "propfind-depth0-dav-files-received-share-nc30.xml",
                configuration: .init(users: ["admin": "pw", "user1": "pw"]), status: 207, contentType: xmlType,
                // The recorded share carries a "download": false attribute, which this server does not model.
                volatile: ReplayCase.davVolatile.union(["nc:share-attributes"])
            ) { server, client in
                server.seedFile(user: "admin", path: "New folder/photo.jpg", contents: Data(count: 292_842))
                let admin = client.with(authorization: DAVClient.basic("admin", "pw"))
                _ = try await admin.ocs("POST", "/ocs/v2.php/apps/files_sharing/api/v1/shares", form: [
                    ("path", "/New folder"), ("shareType", "0"), ("shareWith", "user1"), ("permissions", "31"),
                ])
                let body = RequestBodies.propfind([
                    "d:getetag", "d:getlastmodified", "d:creationdate", "d:displayname", "d:quota-available-bytes", "d:resourcetype",
                    "nc:has-preview", "nc:mount-type", "oc:comments-unread", "oc:favorite", "oc:fileid", "oc:owner-display-name",
                    "oc:owner-id", "oc:permissions", "oc:size", "nc:hidden", "nc:is-mount-root", "nc:reminder-due-date", "nc:note",
                    "nc:sharees", "nc:share-attributes", "oc:share-types", "ocs:share-permissions", "nc:system-tags",
                    "nc:rich-workspace", "nc:rich-workspace-file", "d:getcontentlength", "d:getcontenttype", "nc:is-encrypted",
                    "nc:metadata-blurhash", "nc:metadata-files-live-photo",
                ])
                let user1 = client.with(authorization: DAVClient.basic("user1", "pw"))
                return try await user1.send("PROPFIND", "/remote.php/dav/files/user1/New%20folder/", headers: [("Depth", "0")], text: body)
            },
            ReplayCase(
                fixture: "report-filter-files-systemtags-nc18.xml", configuration: ReplayCase.horst, status: 207,
                contentType: xmlType, volatile: ReplayCase.davVolatile
            ) { server, client in
                let folder = "test/getFileSystemElementsByTags"
                let tagged = [server.seedFolder(user: "horst", path: folder + "/folder3"),
                              server.seedFile(user: "horst", path: folder + "/file3.txt", contents: Data("file3".utf8))]
                let partly = server.seedFile(user: "horst", path: folder + "/file4.txt", contents: Data("file4".utf8))
                var body = try Fixtures.text("req-report-filter-files-systemtags-nncclient.xml")
                for (index, recorded) in ["492", "493", "494"].enumerated() {
                    let created = try await client.send("POST", "/remote.php/dav/systemtags/", headers: [("Content-Type", "application/json")],
                                                        text: #"{"name":"tag-\#(index)","userVisible":true,"userAssignable":true}"#)
                    let tag = created.header("Content-Location")?.split(separator: "/").last.map(String.init) ?? "0"
                    body = body.replacingOccurrences(of: ">\(recorded)<", with: ">\(tag)<")
                    for id in tagged + (index == 0 ? [partly] : []) {
                        _ = try await client.send("PUT", "/remote.php/dav/systemtags-relations/files/\(id)/\(tag)")
                    }
                }
                return try await client.send("REPORT", "/remote.php/dav/files/horst", text: body)
            },
        ] + errorCases
    }

    /// The props of the @nextcloud/files PROPFIND as the Nextcloud 27 recording answers them.
    static let nextcloudFilesProps = [
        "d:getetag", "d:getlastmodified", "d:quota-available-bytes", "d:resourcetype", "nc:has-preview", "nc:is-encrypted",
        "nc:mount-type", "nc:share-attributes", "oc:comments-unread", "oc:favorite", "oc:fileid", "oc:owner-display-name",
        "oc:owner-id", "oc:permissions", "oc:share-types", "oc:size", "ocs:share-permissions", "d:getcontentlength",
        "d:getcontenttype",
    ]

    static var errorCases: [ReplayCase] {
        [
            ReplayCase(fixture: "dav-error-404-propfind-notfound-nc18.xml", configuration: ReplayCase.horst, status: 404, contentType: xmlType) { _, client in
                try await client.send("PROPFIND", "/remote.php/webdav/non/existing/folder", body: try Fixtures.data("req-propfind-body-nncclient-folder-contents.xml"))
            },
            ReplayCase(fixture: "dav-error-404-get-notfound-nc18.xml", configuration: ReplayCase.horst, status: 404, contentType: xmlType) { server, client in
                server.seedFile(user: "horst", path: "test/folder41/file1.txt", contents: Data("x".utf8))
                _ = try await client.send("DELETE", "/remote.php/webdav/test/folder41/file1.txt")
                return try await client.send("GET", "/remote.php/webdav/test/folder41/file1.txt")
            },
            ReplayCase(fixture: "dav-error-405-mkcol-exists-nc18.xml", configuration: ReplayCase.horst, status: 405, contentType: xmlType) { server, client in
                server.seedFolder(user: "horst", path: "Company")
                return try await client.send("MKCOL", "/remote.php/webdav/Company")
            },
            ReplayCase(fixture: "dav-error-409-mkcol-parent-missing-nc18.xml", configuration: ReplayCase.horst, status: 409, contentType: xmlType) { _, client in
                try await client.send("MKCOL", "/remote.php/webdav/ncncTest/share1")
            },
            ReplayCase(fixture: "dav-error-400-report-missing-filter-rules-nc18.xml", configuration: ReplayCase.horst, status: 400, contentType: xmlType) { _, client in
                let body = try Fixtures.text("req-report-filter-files-systemtags-nncclient.xml")
                    .replacingOccurrences(of: #"<oc:filter-rules>[\s\S]*</oc:filter-rules>"#, with: "<oc:filter-rules/>", options: .regularExpression)
                return try await client.send("REPORT", "/remote.php/dav/files/horst", text: body)
            },
            ReplayCase(fixture: "dav-error-403-forbidden-oc10.xml", configuration: ReplayCase.ownCloudAdmin, status: 403, contentType: xmlType) { _, client in
                try await client.send("DELETE", "/remote.php/dav/files/admin/")
            },
            ReplayCase(fixture: "dav-error-404-notfound-oc10.xml", configuration: ReplayCase.ownCloudAdmin, status: 404, contentType: xmlType) { _, client in
                try await client.send("GET", "/remote.php/dav/files/admin/specfile-9.xml")
            },
            ReplayCase(fixture: "dav-error-412-precondition-failed-oc10.xml", configuration: ReplayCase.ownCloudAdmin, status: 412, contentType: xmlType) { server, client in
                server.seedFile(user: "admin", path: "spec.xml", contents: Data("a".utf8))
                return try await client.send("PUT", "/remote.php/dav/files/admin/spec.xml", headers: [("If-Match", "\"0123456789abc\"")], text: "b")
            },
            ReplayCase(fixture: "dav-error-423-locked-oc10.xml", configuration: ReplayCase.ownCloudAdmin, status: 423, contentType: xmlType) { server, client in
                server.seedFile(user: "admin", path: "new folder/newfile.pdf", contents: Data("a".utf8))
                server.faults.lock(user: "admin", path: "new folder/newfile.pdf")
                return try await client.send("PUT", "/remote.php/dav/files/admin/new%20folder/newfile.pdf", text: "b")
            },
            ReplayCase(fixture: "dav-error-503-maintenance-oc10.xml", configuration: ReplayCase.ownCloudAdmin, status: 503, contentType: xmlType) { server, client in
                server.faults.maintenance = true
                return try await client.send("PROPFIND", "/remote.php/dav/files/admin/", headers: [("Depth", "0")])
            },
            ReplayCase(fixture: "dav-error-503-storage-unavailable-oc10.xml", configuration: ReplayCase.ownCloudAdmin, status: 503, contentType: xmlType) { server, client in
                server.faults.failNextRequests(status: 503)
                return try await client.send("PROPFIND", "/remote.php/dav/files/admin/", headers: [("Depth", "0")])
            },
        ]
    }
}
