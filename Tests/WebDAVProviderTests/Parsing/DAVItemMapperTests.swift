import Foundation
import ProviderAPI
import Testing

@testable import WebDAVProvider

/// Maps every response of a recording to an item, with paths relative to `root`.
private func items(_ fixture: String, root: String) throws -> [Item] {
    let mapper = try DAVPathMapper(root: try #require(URL(string: root)))
    return try parseFixture(fixture).map { response in
        DAVItemMapper.item(path: try mapper.path(forHref: response.href), properties: response.found)
    }
}

private func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

extension Parsing {
    @Suite("DAVItemMapper on recorded answers")
    struct DAVItemMapperTests {
        @Test("an ownCloud listing: folders, a file, sizes, dates, etags, raw properties")
        func ownCloudListing() throws {
            let list = try items("propfind-depth1-dav-files-oc10-admin.xml", root: "https://cloud.example/remote.php/dav/files/admin/")
            try #require(list.count == 4)
            #expect(list.map(\.path.description) == ["/", "/Documents", "/Photos", "/ownCloud Manual.pdf"])
            #expect(list.map(\.kind) == [.folder, .folder, .folder, .file])
            #expect(list[0].size == nil && list[1].size == nil, "folders have no getcontentlength")
            #expect(list[1].modified == date(1_520_374_200))
            #expect(list[1].etag == "\"5a9f11b8b440c\"")
            #expect(list[1].mimeType == nil)
            let pdf = list[3]
            #expect(pdf.name == "ownCloud Manual.pdf")
            #expect(pdf.size == 5_094_383)
            #expect(pdf.mimeType == "application/pdf")
            #expect(pdf.etag == "\"c43d4f3af69fb2d8ad1e873dadf9d973\"")
            #expect(pdf.modified == date(1_519_386_725))
            #expect(pdf.properties["{http://owncloud.org/ns}id"] == "00000020ocnq90xhpk22")
            #expect(pdf.properties["{http://owncloud.org/ns}permissions"] == "RDNVW")
            #expect(pdf.properties["{DAV:}getetag"] == nil, "mapped properties are not repeated")
            #expect(list[0].properties["{DAV:}quota-used-bytes"] == "5809166")
        }

        @Test("etags in raw quotes and in &quot; entities map to the same form")
        func etagForms() throws {
            let entity = try items("propfind-depth1-dav-files-oc10-admin.xml", root: "http://h/remote.php/dav/files/admin/")
            let raw = try items("propfind-depth1-dav-files-oc10-checksums.xml", root: "http://h/remote.php/dav/files/admin/")
            #expect(entity[0].etag == "\"5a9f11b8b440c\"")
            #expect(raw[0].etag == "\"5a9000658388d\"")
            #expect(raw[3].etag == "\"6a6b6cd32839a296b941dade1e202490\"")
            #expect(raw[3].size == 5_097_391)
            #expect(raw[3].created == nil, "creationdate was answered 404")
        }

        @Test("a single Nextcloud file")
        func nextcloudFile() throws {
            let list = try items("propfind-depth0-webdav-file-nc18.xml", root: "http://127.0.0.1:8080/remote.php/webdav")
            try #require(list.count == 1)
            let file = list[0]
            #expect(file.path.segments == ["ncncTest", "share1", "file3.txt"])
            #expect(file.kind == .file)
            #expect(file.size == 19)
            #expect(file.mimeType == "text/plain")
            #expect(file.modified == date(1_598_856_013))
            #expect(file.etag == "\"c8dd389a9e095c3eb607eaa345dd0e2d\"")
            #expect(file.properties["{http://owncloud.org/ns}fileid"] == "54594")
            #expect(file.properties["{http://nextcloud.org/ns}has-preview"] == "true")
        }

        @Test("a received share: creation date, display name, names with spaces")
        func receivedShare() throws {
            let list = try items("propfind-depth0-dav-files-received-share-nc30.xml", root: "http://h/remote.php/dav/files/user1/")
            try #require(list.count == 1)
            #expect(list[0].path.segments == ["New folder"])
            #expect(list[0].kind == .folder)
            #expect(list[0].created == date(0))
            #expect(list[0].modified == date(1_739_434_184))
            #expect(list[0].etag == "\"67ada8c90025b\"")
            #expect(list[0].properties["{DAV:}displayname"] == "New folder")
            #expect(list[0].properties["{http://owncloud.org/ns}size"] == "292842")
        }

        @Test("a listing answered without Depth maps the folder and its children")
        func noDepthListing() throws {
            let list = try items("propfind-nodepth-webdav-folder-with-children-nc18.xml", root: "http://h/remote.php/webdav/")
            #expect(list.map(\.path.description) == ["/test", "/test/a", "/test/base09", "/test/base10", "/test/test07"])
            #expect(list.allSatisfy { $0.kind == .folder && $0.size == nil && $0.modified != nil && $0.etag?.hasPrefix("\"") == true })
        }

        @Test("the trash bin's files and folders")
        func trash() throws {
            let list = try items("propfind-trashbin-oc10-docs.xml", root: "http://h/remote.php/dav/trash-bin/admin/")
            #expect(list.map(\.path.description) == ["/", "/255", "/255/256", "/255/256/257", "/255/256/257/263", "/123", "/119"])
            #expect(list.map(\.kind) == [.folder, .folder, .folder, .folder, .file, .file, .file])
            #expect(list.map(\.size) == [nil, nil, nil, nil, 34, 1_067_792, 1_517_914])
            #expect(list[4].properties["{http://owncloud.org/ns}trashbin-original-filename"] == "test.txt")
            #expect(list.allSatisfy { $0.etag == nil && $0.modified == nil })
        }

        @Test("a search result")
        func search() throws {
            let list = try items("report-search-files-oc10-docs.xml", root: "http://h/remote.php/dav/files/admin/")
            try #require(list.count == 1)
            #expect(list[0].path.description == "/Test/Sub-test/Site-Plan.md")
            #expect(list[0].kind == .file, "no resourcetype means a file")
            #expect(list[0].mimeType == "text/markdown")
            #expect(list[0].modified == date(1_501_221_067))
            #expect(list[0].size == nil)
            #expect(list[0].properties["{http://owncloud.org/ns}size"] == "423")
        }

        @Test("etag normalisation", arguments: [
            ("\"abc\"", "\"abc\""), ("abc", "\"abc\""), ("W/\"weak\"", "W/\"weak\""), ("  \"spaced\" ", "\"spaced\""),
            ("5f4c9b4caccbe", "\"5f4c9b4caccbe\""), ("\t\"tab\"", "\"tab\""), ("\u{00A0}\"nbsp\"\u{2003}", "\"nbsp\""),
        ])
        func etags(_ raw: String, _ expected: String) {
            #expect(DAVItemMapper.normalizeETag(raw) == expected)
        }

        @Test("status lines: the code after HTTP/ in any case; anything else is none", arguments: [
            ("HTTP/1.1 200 OK", 200), ("http/1.1 404 Not Found", 404), ("  HTTP/1.1   207  ", 207), ("HTTP/2 423", 423),
            ("HTTP/1.1", nil), ("FTP/1.1 200 OK", nil), ("HTTP/1.1 2x0 OK", nil), ("HTTP/1.1 9999999999 Big", nil), ("", nil),
        ] as [(String, Int?)])
        func statusLines(_ line: String, _ expected: Int?) {
            #expect(MultistatusParser.statusCode(line) == expected)
        }

        @Test("an empty etag is none")
        func emptyEtag() {
            #expect(DAVItemMapper.normalizeETag("") == nil)
            #expect(DAVItemMapper.normalizeETag("   ") == nil)
        }

        @Test("synthetic properties: bare etag, folder MIME type ignored, RFC 1123 creation date, bad numbers")
        func synthetic() throws {
            let folder = DAVItemMapper.item(path: "/f", properties: [
                DAVPropertyName(davNS, "resourcetype"): DAVPropertyValue(text: "", children: [DAVPropertyName(davNS, "collection")]),
                DAVPropertyName(davNS, "getcontenttype"): DAVPropertyValue(text: "httpd/unix-directory"),
                DAVPropertyName(davNS, "getetag"): DAVPropertyValue(text: "bare-etag"),
                DAVPropertyName(davNS, "creationdate"): DAVPropertyValue(text: "Sun, 06 Nov 1994 08:49:37 GMT"),
            ])
            #expect(folder.kind == .folder)
            #expect(folder.mimeType == nil)
            #expect(folder.etag == "\"bare-etag\"")
            #expect(folder.created == date(784_111_777))
            #expect(folder.properties.isEmpty)

            let file = DAVItemMapper.item(path: "/a.txt", properties: [
                DAVPropertyName(davNS, "getcontentlength"): DAVPropertyValue(text: "not a number"),
                DAVPropertyName(davNS, "getlastmodified"): DAVPropertyValue(text: "garbage"),
                DAVPropertyName(davNS, "getcontenttype"): DAVPropertyValue(text: ""),
                DAVPropertyName("urn:x", "empty"): DAVPropertyValue(text: ""),
            ])
            #expect(file.kind == .file)
            #expect(file.size == nil)
            #expect(file.modified == nil)
            #expect(file.mimeType == nil)
            #expect(file.properties.isEmpty, "empty values are not kept")
            #expect(file.path.description == "/a.txt")
            #expect(file.id == "/a.txt")
        }
    }
}
