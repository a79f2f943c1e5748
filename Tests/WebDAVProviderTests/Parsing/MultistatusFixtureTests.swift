import Foundation
import Testing

@testable import WebDAVProvider

let davNS = "DAV:"
let ownCloudNS = "http://owncloud.org/ns"
let nextcloudNS = "http://nextcloud.org/ns"
let ocsNS = "http://open-collaboration-services.org/ns"

extension DAVResponse {
    /// The text of a property the server answered 2xx for.
    func text(_ namespace: String, _ name: String) -> String? { found[DAVPropertyName(namespace, name)]?.text }
    /// Whether `resourcetype` holds `DAV:collection`.
    var isCollection: Bool { found[DAVPropertyName(davNS, "resourcetype")]?.children.contains(DAVPropertyName(davNS, "collection")) ?? false }
    /// The statuses of the propstats, in order.
    var propstatStatuses: [Int] { propstats.map(\.status) }
}

func parseFixture(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [DAVResponse] {
    try MultistatusParser.parse(try Fixtures.data(name, sourceLocation: sourceLocation))
}

extension Parsing {
    @Suite("MultistatusParser on recorded answers")
    struct MultistatusFixtureTests {
        @Test("the fixtures folder exists and holds exactly the multistatus recordings these tests know")
        func folderMatches() throws {
            var isDirectory: ObjCBool = false
            try #require(
                FileManager.default.fileExists(atPath: Fixtures.folder.path, isDirectory: &isDirectory) && isDirectory.boolValue,
                "missing fixtures folder \(Fixtures.folder.path)")
            #expect(try Fixtures.discoveredMultistatusNames() == Fixtures.multistatusNames.sorted())
        }

        @Test("every recording parses, every response has an href and statuses", arguments: Fixtures.multistatusNames)
        func parses(_ name: String) throws {
            let responses = try parseFixture(name)
            #expect(!responses.isEmpty)
            for response in responses {
                #expect(response.href.hasPrefix("/remote.php/"), "\(response.href)")
                #expect(!response.propstats.isEmpty)
                for propstat in response.propstats { #expect([200, 403, 404, 424].contains(propstat.status)) }
            }
        }

        @Test("allprop of the old webdav root with quota (Nextcloud 18)")
        func allpropQuota() throws {
            let r = try parseFixture("propfind-allprop-webdav-root-quota-nc18.xml")
            try #require(r.count == 3)
            #expect(r.map(\.href) == ["/remote.php/webdav/", "/remote.php/webdav/my%20Public%20Share/", "/remote.php/webdav/myOublicShare/"])
            #expect(r.allSatisfy { $0.isCollection })
            #expect(r[0].text(davNS, "getetag") == "\"5f4c9af3e3fbc\"")
            #expect(r[0].text(davNS, "quota-available-bytes") == "173752352768")
            #expect(r[0].text(davNS, "quota-used-bytes") == "0")
            #expect(r[0].text(davNS, "getlastmodified") == "Mon, 31 Aug 2020 06:38:43 GMT")
            #expect(r[1].propstatStatuses == [200, 404])
            #expect(r[1].text(davNS, "getcontentlength") == nil, "404 properties are not found")
            #expect(r[1].propstats[1].properties[DAVPropertyName(davNS, "getcontentlength")] != nil)
            #expect(r[2].text(davNS, "getetag") == "\"5f2bbac85fea9\"")
        }

        @Test("a favourite, link-shared folder (Nextcloud 27)")
        func favoriteLinkShared() throws {
            let r = try parseFixture("propfind-depth0-dav-files-folder-favorite-linkshared-nc27.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/dav/files/user1/Neuer%20Ordner/")
            #expect(r[0].isCollection)
            #expect(r[0].text(davNS, "getetag") == "\"64bea734d3987\"")
            #expect(r[0].text(ownCloudNS, "favorite") == "1")
            #expect(r[0].text(ownCloudNS, "fileid") == "74")
            #expect(r[0].text(ownCloudNS, "permissions") == "RGDNVCK")
            #expect(r[0].text(ocsNS, "share-permissions") == "31", "a namespace declared on the element itself")
            #expect(r[0].found[DAVPropertyName(ownCloudNS, "share-types")]?.children == [DAVPropertyName(ownCloudNS, "share-type")])
            #expect(r[0].text(nextcloudNS, "mount-type") == "")
            #expect(r[0].text(davNS, "quota-available-bytes") == "-3")
        }

        @Test("a received share, pretty-printed with entities (Nextcloud 30)")
        func receivedShare() throws {
            let r = try parseFixture("propfind-depth0-dav-files-received-share-nc30.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/dav/files/user1/New%20folder/")
            #expect(r[0].isCollection)
            #expect(r[0].text(davNS, "displayname") == "New folder")
            #expect(r[0].text(davNS, "creationdate") == "1970-01-01T00:00:00+00:00")
            #expect(r[0].text(davNS, "getetag") == "\"67ada8c90025b\"")
            #expect(r[0].text(ownCloudNS, "size") == "292842")
            #expect(r[0].text(ownCloudNS, "permissions") == "SRGDNVCK")
            #expect(r[0].text(nextcloudNS, "mount-type") == "shared")
            #expect(r[0].text(nextcloudNS, "share-attributes") == #"[{"scope":"permissions","key":"download","value":false}]"#)
            #expect(r[0].propstatStatuses == [200, 404])
            #expect(r[0].propstats[1].properties.keys.contains(DAVPropertyName(nextcloudNS, "is-encrypted")))
        }

        @Test("the files root of a user (Nextcloud 27)")
        func filesRoot() throws {
            let r = try parseFixture("propfind-depth0-dav-files-root-nc27.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/dav/files/user1/")
            #expect(r[0].text(davNS, "getetag") == "\"632a3876842ffbf86f9e02df59829a56\"")
            #expect(r[0].text(ownCloudNS, "size") == "171")
            #expect(r[0].text(ownCloudNS, "fileid") == "57")
        }

        @Test("one file (Nextcloud 18)")
        func oneFile() throws {
            let r = try parseFixture("propfind-depth0-webdav-file-nc18.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/webdav/ncncTest/share1/file3.txt")
            #expect(!r[0].isCollection)
            #expect(r[0].found[DAVPropertyName(davNS, "resourcetype")]?.children == [])
            #expect(r[0].text(davNS, "getcontentlength") == "19")
            #expect(r[0].text(davNS, "getcontenttype") == "text/plain")
            #expect(r[0].text(davNS, "getetag") == "\"c8dd389a9e095c3eb607eaa345dd0e2d\"")
            #expect(r[0].text(ownCloudNS, "fileid") == "54594")
            #expect(r[0].text(ownCloudNS, "owner-display-name") == "Horst-Thorsten Borstenson")
            #expect(r[0].propstatStatuses == [200])
        }

        @Test("a link-shared folder (Nextcloud 18)")
        func linkSharedFolder() throws {
            let r = try parseFixture("propfind-depth0-webdav-folder-link-shared-nc18.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/webdav/ncncTest/share/03/publicUploadFolder/")
            #expect(r[0].isCollection)
            #expect(r[0].text(ownCloudNS, "fileid") == "54597")
            #expect(r[0].text(davNS, "getetag") == "\"5f4c9b50f1f3b\"")
            #expect(r[0].found[DAVPropertyName(ownCloudNS, "share-types")]?.children == [DAVPropertyName(ownCloudNS, "share-type")])
        }

        @Test("an empty folder (Nextcloud 18)")
        func emptyFolder() throws {
            let r = try parseFixture("propfind-depth0-webdav-folder-nc18.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/webdav/ncncTest/share1/")
            #expect(r[0].isCollection)
            #expect(r[0].text(davNS, "getetag") == "\"5f4c9b4caccbe\"")
            #expect(r[0].text(ownCloudNS, "fileid") == "54593")
            #expect(r[0].text(ownCloudNS, "size") == "0")
        }

        @Test("a depth-1 listing of the admin's files (ownCloud 10)")
        func adminListing() throws {
            let r = try parseFixture("propfind-depth1-dav-files-oc10-admin.xml")
            try #require(r.count == 4)
            #expect(r.map(\.href) == [
                "/remote.php/dav/files/admin/", "/remote.php/dav/files/admin/Documents/", "/remote.php/dav/files/admin/Photos/",
                "/remote.php/dav/files/admin/ownCloud%20Manual.pdf",
            ])
            #expect(r.map(\.isCollection) == [true, true, true, false])
            #expect(r[3].text(davNS, "getcontentlength") == "5094383")
            #expect(r[3].text(davNS, "getcontenttype") == "application/pdf")
            #expect(r[3].text(davNS, "getetag") == "\"c43d4f3af69fb2d8ad1e873dadf9d973\"")
            #expect(r[3].text(ownCloudNS, "id") == "00000020ocnq90xhpk22")
            #expect(r[0].text(davNS, "quota-used-bytes") == "5809166")
            #expect(r[2].text(davNS, "getlastmodified") == "Tue, 06 Mar 2018 22:09:59 GMT")
        }

        @Test("a listing with checksums and raw quotes (ownCloud 10)")
        func checksums() throws {
            let r = try parseFixture("propfind-depth1-dav-files-oc10-checksums.xml")
            try #require(r.count == 4)
            #expect(r[0].text(davNS, "getetag") == "\"5a9000658388d\"")
            #expect(r[1].href == "/remote.php/dav/files/admin/Documents/")
            #expect(r[3].href == "/remote.php/dav/files/admin/ownCloud%20Manual.pdf")
            #expect(r[3].text(davNS, "getetag") == "\"6a6b6cd32839a296b941dade1e202490\"")
            #expect(r[3].text(davNS, "getcontentlength") == "5097391")
            #expect(r[3].found[DAVPropertyName(ownCloudNS, "checksums")]?.children == [DAVPropertyName(ownCloudNS, "checksum")])
            #expect(r[0].propstats[1].properties.keys.contains(DAVPropertyName(davNS, "creationdate")))
            #expect(r[0].text(davNS, "creationdate") == nil)
        }

        @Test("the first files of a 1000-file folder (ownCloud 10)")
        func manyFiles() throws {
            let r = try parseFixture("propfind-depth1-dav-files-oc10-manyfiles-EXCERPT.xml")
            try #require(r.count == 4)
            #expect(r.map(\.href) == [
                "/remote.php/dav/files/manyfiles/1000/", "/remote.php/dav/files/manyfiles/1000/file.0.txt",
                "/remote.php/dav/files/manyfiles/1000/file.1.txt", "/remote.php/dav/files/manyfiles/1000/file.10.txt",
            ])
            #expect(r.dropFirst().allSatisfy { $0.text(davNS, "getcontentlength") == "100" && !$0.isCollection })
            #expect(r[2].text(davNS, "getetag") == "\"d7a6119e107fe8da27f2e3b1186bbc0d\"")
            #expect(r[0].text(davNS, "quota-available-bytes") == "5362978198")
        }

        @Test("a PROPFIND without Depth answered as depth 1 (Nextcloud 18)")
        func noDepth() throws {
            let r = try parseFixture("propfind-nodepth-webdav-folder-with-children-nc18.xml")
            try #require(r.count == 5)
            #expect(r.map(\.href) == [
                "/remote.php/webdav/test/", "/remote.php/webdav/test/a/", "/remote.php/webdav/test/base09/",
                "/remote.php/webdav/test/base10/", "/remote.php/webdav/test/test07/",
            ])
            #expect(r.allSatisfy { $0.isCollection })
            #expect(r[4].text(ownCloudNS, "size") == "19")
            #expect(r[1].text(ownCloudNS, "fileid") == "54436")
        }

        @Test("the trash bin (ownCloud docs)")
        func trashbin() throws {
            let r = try parseFixture("propfind-trashbin-oc10-docs.xml")
            try #require(r.count == 7)
            #expect(r.map(\.href).last == "/remote.php/dav/trash-bin/admin/119")
            #expect(r.map(\.isCollection) == [true, true, true, true, false, false, false])
            #expect(r[4].text(ownCloudNS, "trashbin-original-filename") == "test.txt")
            #expect(r[4].text(ownCloudNS, "trashbin-original-location") == "Level 1/Level 2/Level 3/test.txt")
            #expect(r[4].text(davNS, "getcontentlength") == "34")
            #expect(r[5].text(davNS, "getcontentlength") == "1067792")
            #expect(r[6].text(davNS, "getcontentlength") == "1517914")
            #expect(r[1].text(ownCloudNS, "trashbin-delete-datetime") == "Tue, 09 Jul 2019 08:26:38 GMT")
            #expect(r[0].propstats[1].properties.count == 4)
        }

        @Test("a PROPPATCH answered 403 and 424 (ownCloud 10)")
        func proppatch() throws {
            let r = try parseFixture("proppatch-207-403-424-oc10.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/dav/files/admin/ownCloud%20Manual.pdf")
            #expect(r[0].propstatStatuses == [403, 424])
            #expect(r[0].found.isEmpty)
            #expect(r[0].propstats[0].properties.keys.first == DAVPropertyName(davNS, "getlastmodified"))
            #expect(r[0].propstats[1].properties.keys.first == DAVPropertyName(ownCloudNS, "favorite"))
        }

        @Test("a REPORT with a response-level status before the href (Nextcloud 18)")
        func reportSystemTags() throws {
            let r = try parseFixture("report-filter-files-systemtags-nc18.xml")
            try #require(r.count == 2)
            #expect(r.map(\.href) == [
                "/remote.php/dav/files/horst/test/getFileSystemElementsByTags/folder3",
                "/remote.php/dav/files/horst/test/getFileSystemElementsByTags/file3.txt",
            ])
            #expect(r.map(\.status) == [200, 200])
            #expect(r[0].text(ownCloudNS, "fileid") == "54602")
            #expect(r[1].text(ownCloudNS, "fileid") == "54605")
            #expect(r[1].text(davNS, "getcontenttype") == "text/plain")
            #expect(r[0].text(davNS, "getcontenttype") == nil)
        }

        @Test("a search REPORT (ownCloud docs)")
        func reportSearch() throws {
            let r = try parseFixture("report-search-files-oc10-docs.xml")
            try #require(r.count == 1)
            #expect(r[0].href == "/remote.php/dav/files/admin/Test/Sub-test/Site-Plan.md")
            #expect(r[0].status == nil)
            #expect(r[0].text(ownCloudNS, "size") == "423")
            #expect(r[0].text(ownCloudNS, "id") == "00000065oc21s4c9iej2")
            #expect(r[0].text(davNS, "getetag") == "\"0286fcdabf5b4f5ef84788d86c37e245\"")
            #expect(r[0].text(davNS, "getcontenttype") == "text/markdown")
            #expect(r[0].text(ownCloudNS, "downloadURL") == "")
        }
    }
}
