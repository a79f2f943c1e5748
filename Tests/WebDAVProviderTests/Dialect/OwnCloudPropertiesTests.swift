import Foundation
import ProviderAPI
import Testing

@testable import WebDAVProvider

extension Dialect {
    @Suite("oc: and nc: properties from the recordings")
    struct OwnCloudPropertiesTests {
        @Test("ownCloud 10: oc:id as id, SHA1, MD5 and ADLER32 from oc:checksums, RDNVW permissions, folder sizes from oc:size")
        func ownCloudChecksums() throws {
            let items = try dialectItems("propfind-depth1-dav-files-oc10-checksums.xml")
            let manual = try #require(items["ownCloud Manual.pdf"])
            #expect(manual.id == "00000010ocre5kavbk8j")
            #expect(manual.kind == .file)
            #expect(manual.size == 5_097_391)
            #expect(manual.digests[.sha1] == "b6e74385099c208fa310ee7d0168e270e40de4c9")
            #expect(manual.digests[.md5] == "2dc1a2fc2aa833b00b92dc4388a86139")
            #expect(manual.digests[DigestAlgorithm(rawValue: "adler32")] == "0edff753")
            #expect(manual.permissions == [.read, .write, .delete, .rename, .share])
            #expect(manual.properties["oc:permissions"] == "RDNVW")
            let documents = try #require(items["Documents"])
            #expect(documents.kind == .folder)
            #expect(documents.size == 36227)
            #expect(documents.id == "00000011ocre5kavbk8j")
            #expect(documents.permissions == [.read, .write, .delete, .rename, .createChildren, .share])
            #expect(documents.digests.isEmpty)
        }

        @Test("Nextcloud 27: oc:fileid as id, a link share in oc:share-types, favourite, RGDNVCK")
        func nextcloudLinkShared() throws {
            let items = try dialectItems("propfind-depth0-dav-files-folder-favorite-linkshared-nc27.xml")
            let folder = try #require(items["Neuer Ordner"])
            #expect(folder.id == "74")
            #expect(folder.kind == .folder)
            #expect(folder.size == 0)
            #expect(OwnCloudProperties.shareTypes(of: folder) == [3])
            #expect(folder.properties["oc:favorite"] == "1")
            #expect(folder.permissions == [.read, .write, .delete, .rename, .createChildren, .share])
            #expect(folder.etag == "\"64bea734d3987\"")
        }

        @Test("Nextcloud 30: a received share has no share types of its own, and its size comes from oc:size")
        func nextcloudReceivedShare() throws {
            let items = try dialectItems("propfind-depth0-dav-files-received-share-nc30.xml")
            let folder = try #require(items["New folder"])
            #expect(folder.id == "56")
            #expect(folder.size == 292_842)
            #expect(OwnCloudProperties.shareTypes(of: folder).isEmpty)
            #expect(folder.properties["oc:share-types"] == "")
            #expect(folder.permissions?.contains(.share) == true)
        }

        @Test("Nextcloud 18: a file's id, size, MIME type and permissions; no checksums")
        func nextcloudFile() throws {
            let items = try dialectItems("propfind-depth0-webdav-file-nc18.xml")
            let file = try #require(items["file3.txt"])
            #expect(file.id == "54594")
            #expect(file.size == 19)
            #expect(file.mimeType == "text/plain")
            #expect(file.permissions == [.read, .write, .delete, .rename, .share])  // R: may reshare
            #expect(file.digests.isEmpty)
            // The dialect's own properties move to portable fields, not to the raw bag.
            #expect(file.properties["{http://owncloud.org/ns}fileid"] == nil)
        }

        @Test("every PROPFIND recording reads, and every item reporting oc:fileid or oc:id takes it as its id")
        func everyRecording() throws {
            let names = try Fixtures.discoveredMultistatusNames().filter { $0.hasPrefix("propfind-") && !$0.contains("trashbin") }
            #expect(names.count >= 11)
            for name in names {
                let responses = try MultistatusParser.parse(try Fixtures.data(name))
                for response in responses {
                    let found = response.found
                    let plain = DAVItemMapper.item(path: ItemPath("/x"), properties: found)
                    let item = OwnCloudProperties.refine(plain, properties: found)
                    let declared = found[DAVPropertyName(ownCloudNS, "fileid")]?.text ?? found[DAVPropertyName(ownCloudNS, "id")]?.text
                    if let declared, !declared.isEmpty {
                        #expect(item.id == declared, "\(name) \(response.href)")
                    } else {
                        #expect(item.id == "/x", "\(name) \(response.href)")
                    }
                    if found[DAVPropertyName(ownCloudNS, "permissions")] != nil {
                        #expect(item.permissions?.contains(.read) == true, "\(name) \(response.href)")
                    }
                }
            }
        }

        @Test("checksum values: several algorithms, unknown names kept, malformed tokens dropped")
        func checksumParsing() {
            let parsed = OwnCloudChecksum.parse("SHA1:ABCDEF01 MD5:0123 ADLER32:0edff753 junk SHA256: BAD:xyz")
            #expect(parsed[.sha1] == "abcdef01")
            #expect(parsed[.md5] == "0123")
            #expect(parsed[DigestAlgorithm(rawValue: "adler32")] == "0edff753")
            #expect(parsed[.sha256] == nil)
            #expect(parsed[DigestAlgorithm(rawValue: "bad")] == nil)
            #expect(OwnCloudChecksum.header(.sha1, "ABC") == "SHA1:abc")
        }

        @Test("ownCloud permission letters map to portable permissions")
        func permissionLetters() {
            #expect(OwnCloudProperties.permissions("", folder: false) == [.read])
            #expect(OwnCloudProperties.permissions("W", folder: false) == [.read, .write])
            #expect(OwnCloudProperties.permissions("CK", folder: true) == [.read, .write, .createChildren])
            #expect(OwnCloudProperties.permissions("SRM", folder: false) == [.read, .share])
        }
    }
}
