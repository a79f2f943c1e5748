import Foundation
import ProviderAPI
import Testing

@testable import WebDAVProvider

extension Dialect {
    @Suite("OCS envelopes and shares from the recordings")
    struct OCSFixtureTests {
        @Test("Nextcloud 18 v2 JSON: a public link with a password")
        func linkWithPassword() throws {
            let envelope = try OCSEnvelope.parse(try Fixtures.data("ocs-v2-share-create-link-password-nc18.json"))
            #expect(envelope.statusCode == 200)
            #expect(envelope.error() == nil)
            let share = try #require(try OCSShareMapper.share(envelope.data, path: homePaths))
            #expect(share.id == "84")
            #expect(share.kind == .publicLink)
            #expect(share.passwordProtected)
            #expect(share.permissions == .read)
            #expect(share.path == (ItemPath("/ncncTest/share1/file3.txt")))
            #expect(share.url?.absoluteString == "https://cc.hobigo.de/s/mGKBLBCi8gyqRpL")
            // The link's page is `url`; the file's bytes are at `/s/TOKEN/download`.
            #expect(share.downloadURL?.absoluteString == "https://cc.hobigo.de/s/mGKBLBCi8gyqRpL/download")
            #expect(share.expires == nil)
            #expect(share.properties["token"] == "mGKBLBCi8gyqRpL")
        }

        @Test("Nextcloud 18 v2 JSON: links without a password, a folder link made public-upload (15)")
        func linksWithoutPassword() throws {
            let plain = try OCSEnvelope.parse(try Fixtures.data("ocs-v2-share-create-link-nopassword-nc18.json"))
            let share = try #require(try OCSShareMapper.share(plain.data, path: homePaths))
            #expect(share.id == "85")
            #expect(!share.passwordProtected)
            let upload = try OCSEnvelope.parse(try Fixtures.data("ocs-v2-share-update-permissions-15-folder-nc18.json"))
            let folder = try #require(try OCSShareMapper.share(upload.data, path: homePaths))
            #expect(folder.permissions == [.read, .write, .create, .delete])
            #expect(folder.path == (ItemPath("/ncncTest/share/03/publicUploadFolder")))
            #expect(folder.downloadURL == nil, "a folder link has a page, no file to download")
        }

        @Test("Nextcloud 18 v2 JSON: GET of one share answers an array; an expiry reads as that day, UTC")
        func getAndExpiry() throws {
            let got = try OCSShareMapper.shares(
                try OCSEnvelope.parse(try Fixtures.data("ocs-v2-share-get-nc18.json")).data, path: homePaths)
            #expect(got.map(\.id) == ["84"])
            let updated = try OCSEnvelope.parse(try Fixtures.data("ocs-v2-share-update-expiredate-nc18.json"))
            let share = try #require(try OCSShareMapper.share(updated.data, path: homePaths))
            #expect(share.expires == Date(timeIntervalSince1970: 1_607_040_000))
            #expect(share.properties["note"] == "This is a Note\nNew Line")
            #expect(OCSShareMapper.expireDate(Date(timeIntervalSince1970: 1_607_040_000 + 3600)) == "2020-12-04")
        }

        @Test("Nextcloud 24 v2 JSON: a user share with permissions 19")
        func userShare() throws {
            let data = try OCSEnvelope.parse(try Fixtures.data("ocs-v2-shares-list-user-share-nc24.json")).data
            let shares = try OCSShareMapper.shares(data, path: homePaths)
            #expect(shares.count == 1)
            #expect(shares.first?.kind == .user("testuser"))
            #expect(shares.first?.permissions == [.read, .write, .reshare])
            #expect(shares.first?.passwordProtected == false)
        }

        @Test("ownCloud v1 JSON and XML: status 100, lists, a named link, the empty list")
        func ownCloudV1() throws {
            let json = try OCSEnvelope.parse(try Fixtures.data("ocs-v1-shares-list-path-oc-docs.json"))
            #expect(json.statusCode == 100 && json.isSuccess)
            #expect(try OCSShareMapper.shares(json.data, path: homePaths).map(\.kind) == [.user("admin")])
            let xml = try OCSEnvelope.parse(try Fixtures.data("ocs-v1-share-create-link-oc-docs.xml"))
            let link = try #require(try OCSShareMapper.share(xml.data, path: homePaths))
            #expect(link.id == "115468")
            #expect(link.kind == .publicLink)
            #expect(link.properties["name"] == "paris photo")
            #expect(link.url?.absoluteString == "https://your.owncloud.install.com/owncloud/index.php/s/MMqyHrR0GTepo4B")
            let empty = try OCSEnvelope.parse(try Fixtures.data("ocs-v1-shares-list-empty-oc-docs.xml"))
            #expect(try OCSShareMapper.shares(empty.data, path: homePaths).isEmpty)
        }

        @Test("ownCloud 10 live XML: two link reshares, one with a password hash in share_with and an expiry")
        func ownCloudLive() throws {
            let envelope = try OCSEnvelope.parse(try httpBody("ocs-v1-shares-list-reshares-password-expiry-oc10.http"))
            let shares = try OCSShareMapper.shares(envelope.data, path: homePaths)
            #expect(shares.map(\.id) == ["28", "29"])
            #expect(shares.map(\.passwordProtected) == [false, true])
            #expect(shares[1].expires == Date(timeIntervalSince1970: 1_553_040_000))
            let mixed = try OCSEnvelope.parse(try httpBody("ocs-v1-shares-list-user-and-link-oc10.http"))
            let kinds = try OCSShareMapper.shares(mixed.data, path: homePaths).map(\.kind.tag)
            #expect(kinds == [.user, .publicLink])
        }

        @Test("a share outside the provider's root is left out")
        func outsideRoot() throws {
            let data = try OCSEnvelope.parse(try Fixtures.data("ocs-v2-shares-list-user-share-nc24.json")).data
            let shares = try OCSShareMapper.shares(data) { text in
                text.hasPrefix("/Other/") ? try ItemPath(String(text.dropFirst(6))) : nil
            }
            #expect(shares.isEmpty)
        }

        @Test(
            "OCS error codes map to ProviderError codes",
            arguments: [
                ("ocs-v1-error-997-unauthorised-oc-docs.xml", ProviderError.Code.unauthorized, "Unauthorised"),
                ("ocs-v1-error-997-http401-nc18.json", .unauthorized, nil),
                ("ocs-v1-error-404-http200-user-not-found-nc18.json", .notFound, "User does not exist"),
                ("ocs-v1-error-102-http200-user-exists-nc18.json", .alreadyExists, nil),
                ("ocs-v1-share-create-error-400-oc-docs.xml", .invalidArgument, "unknown share type"),
                ("ocs-v1-share-get-error-404-oc-docs.xml", .notFound, nil),
                ("ocs-v1-share-update-error-400-oc-docs.xml", .invalidArgument, nil),
                ("ocs-v1-share-delete-error-404-oc-docs.xml", .notFound, nil),
                ("ocs-v1-shares-list-path-error-oc-docs.xml", .notFound, nil),
            ] as [(String, ProviderError.Code, String?)])
        func errors(name: String, code: ProviderError.Code, message: String?) throws {
            let envelope = try OCSEnvelope.parse(try Fixtures.data(name))
            #expect(!envelope.isSuccess)
            let error = try #require(envelope.error(request: "GET /ocs", httpStatus: 200))
            #expect(error.code == code)
            #expect(error.httpStatus == 200)
            if let message { #expect(error.message == message) }
        }

        @Test("a delete answers success with empty data; malformed and foreign bodies are invalidResponse")
        func deleteAndMalformed() throws {
            let deleted = try OCSEnvelope.parse(try Fixtures.data("ocs-v2-share-delete-nc18.json"))
            #expect(deleted.isSuccess)
            #expect(try OCSShareMapper.shares(deleted.data, path: homePaths).isEmpty)
            for body in ["{\"ocs\":{}}", "{\"ocs\":{\"meta\":{\"statuscode\":\"x\"}}}", "<html>hi</html>", "<ocs><meta>", "", "[1,2"] {
                #expect(throws: ProviderError.self) { try OCSEnvelope.parse(Data(body.utf8)) }
                do { _ = try OCSEnvelope.parse(Data(body.utf8)) } catch let error as ProviderError {
                    #expect(error.code == .invalidResponse, "\(body)")
                }
            }
            let entity = "<?xml version=\"1.0\"?><!DOCTYPE ocs [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><ocs><meta><statuscode>100</statuscode></meta><data>&x;</data></ocs>"
            #expect(throws: ProviderError.self) { try OCSEnvelope.parse(Data(entity.utf8)) }
            #expect(throws: ProviderError.self) { try OCSShareMapper.share(["share_type": 3], path: homePaths) }
        }

        @Test("share requests become OCS form parameters")
        func createParameters() {
            let link = OCSShareMapper.createParameters(
                ShareRequest(kind: .publicLink, permissions: .read, password: "p w", expires: Date(timeIntervalSince1970: 1_607_040_000)),
                path: "/a b.txt")
            #expect(link.map(\.0) == ["path", "shareType", "permissions", "password", "expireDate"])
            #expect(link.map(\.1) == ["/a b.txt", "3", "1", "p w", "2020-12-04"])
            let group = OCSShareMapper.createParameters(
                ShareRequest(kind: .group("staff"), permissions: [.read, .write, .create, .delete, .reshare]), path: "/d")
            #expect(group.map(\.1) == ["/d", "1", "staff", "31"])
        }
    }
}

extension Dialect {
    @Suite("checksum refusals")
    struct ChecksumRefusalTests {
        @Test("a 400 naming a checksum is integrity; other 400s and other statuses keep their code")
        func mapping() {
            let refused = ProviderError(.server, "The computed checksum does not match the one received from the client.", httpStatus: 400)
            #expect(ChunkedUploader.checksumAware(refused).code == .integrity)
            let other = ProviderError(.server, "Invalid OC-Total-Length header", httpStatus: 400)
            #expect(ChunkedUploader.checksumAware(other).code == .server)
            let locked = ProviderError(.conflict, "checksum of a locked file", httpStatus: 423)
            #expect(ChunkedUploader.checksumAware(locked).code == .conflict)
        }
    }
}
