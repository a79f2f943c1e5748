import Foundation
import ProviderAPI
import Testing

@testable import WebDAVProvider
import HTTPProviderKit

extension Dialect {
    @Suite("status.php, capabilities, trash bin, WebDAV errors")
    struct ServerDescriptionTests {
        @Test("status.php: Nextcloud, version, maintenance; a foreign body is refused")
        func status() throws {
            let status = try OwnCloudStatus(json: try Fixtures.data("status-nc13.json"))
            #expect(status.flavor == .nextcloud)
            #expect(status.version == "13.0.0.5")
            #expect(status.versionString == "13.0.0 alpha")
            #expect(!status.maintenance)
            #expect(try OwnCloudStatus(json: try Fixtures.data("status-nc13-maintenance.json")).maintenance)
            let owncloud = try OwnCloudStatus(json: Data(#"{"installed":true,"version":"10.1.0.4","productname":"ownCloud"}"#.utf8))
            #expect(owncloud.flavor == .owncloud)
            #expect(throws: ProviderError.self) { try OwnCloudStatus(json: Data(#"{"status":"ok"}"#.utf8)) }
        }

        @Test("capabilities: chunking, sharing and the trash bin of Nextcloud 24 and ownCloud 10.1")
        func capabilities() throws {
            let nc = OwnCloudServerFeatures(
                capabilities: try OCSEnvelope.parse(try Fixtures.data("ocs-v1-capabilities-nc24.json")).data, flavor: .nextcloud)
            #expect(nc.chunking && nc.sharing && nc.publicLinks && nc.trash && nc.search)
            #expect(!nc.passwordEnforced)
            #expect(nc.version == "24.0.1")
            let oc = OwnCloudServerFeatures(
                capabilities: try OCSEnvelope.parse(try Fixtures.data("ocs-v1-capabilities-oc10.1.json")).data, flavor: .owncloud)
            #expect(oc.chunking && oc.sharing && oc.publicLinks && oc.trash)
            #expect(!oc.search)
            #expect(oc.checksumTypes == ["SHA1"])
            let none = OwnCloudServerFeatures(capabilities: ["capabilities": [:]], flavor: .nextcloud)
            #expect(!none.chunking && !none.sharing && !none.publicLinks && !none.trash)
        }

        @Test("the dialect's capabilities add ids, permissions, digests, mtimes, shares and search")
        func providerCapabilities() throws {
            let dialect = WebDAVDialect(
                flavor: .nextcloud, serverRoot: try #require(URL(string: "http://127.0.0.1:1/nc")), user: "ann b",
                features: OwnCloudServerFeatures(emailShares: false))
            #expect(dialect.serverRoot.absoluteString == "http://127.0.0.1:1/nc/")
            #expect(dialect.filesRoot.absoluteString == "http://127.0.0.1:1/nc/remote.php/dav/files/ann%20b/")
            #expect(dialect.trashRoot.absoluteString == "http://127.0.0.1:1/nc/remote.php/dav/trashbin/ann%20b/trash/")
            let capabilities = dialect.capabilities(over: WebDAVServerProfile.generic.capabilities)
            #expect(capabilities.supports([.stableIDs, .permissions, .digests, .setModifiedTime, .shares, .search, .move, .copy]))
            #expect(capabilities.digestAlgorithms == [.sha1])
            #expect(capabilities.shareKinds == [.publicLink, .user, .group])
        }

        @Test("ownCloud's trash bin: entries directly in the root, with original names, locations and times")
        func trash() throws {
            let responses = try MultistatusParser.parse(try Fixtures.data("propfind-trashbin-oc10-docs.xml"))
            let items = try TrashBin.items(responses, rootPath: "/remote.php/dav/trash-bin/admin/")
            #expect(items.contains { $0.id == "255" && $0.originalName == "Level 1" && $0.kind == .folder })
            #expect(!items.contains { $0.id == "256" })  // inside entry 255
            #expect(items.allSatisfy { $0.deleted != nil })
            #expect(items.first { $0.id == "255" }?.deleted == HTTPDate.parse("Tue, 09 Jul 2019 08:26:38 GMT"))
        }

        @Test(
            "Sabre error bodies give their messages",
            arguments: [
                ("dav-error-423-locked-oc10.xml", "\"new folder/newfile.pdf\" is locked"),
                ("dav-error-503-maintenance-oc10.xml", "System in maintenance mode."),
                ("dav-error-404-notfound-oc10.xml", "File with name specfile-9.xml could not be located"),
            ])
        func davErrors(name: String, message: String) throws {
            let parsed = try #require(DAVErrorBody.parse(try Fixtures.data(name)))
            #expect(parsed.message == message)
            #expect(parsed.exception?.hasPrefix("Sabre") == true || parsed.exception?.hasPrefix("OCA") == true)
        }

        @Test("URLs: server root, DAV root and user from nextcloud URLs")
        func endpoints() throws {
            let plain = try OwnCloudProviderFactory.endpoints(try #require(URL(string: "http://h:8/")))
            #expect(plain.serverRoot.absoluteString == "http://h:8/" && plain.davRoot == nil)
            let dav = try OwnCloudProviderFactory.endpoints(try #require(URL(string: "http://h/nc/remote.php/dav/files/ann/A%20B")))
            #expect(dav.serverRoot.absoluteString == "http://h/nc/")
            #expect(dav.davRoot?.absoluteString == "http://h/nc/remote.php/dav/files/ann/A%20B/")
            #expect(dav.user == "ann")
            let factory = OwnCloudProviderFactory()
            let located = try factory.locate(try #require(URL(string: "http://h/nc/remote.php/dav/files/ann/A/b.txt")))
            #expect(located.root.absoluteString == "http://h/nc/remote.php/dav/files/ann/")
            #expect(located.path == (ItemPath("/A/b.txt")))
            let origin = try factory.locate(try #require(URL(string: "http://h/Docs/b.txt")))
            #expect(origin.root.absoluteString == "http://h/")
            #expect(origin.path == (ItemPath("/Docs/b.txt")))
            #expect(throws: ProviderError.self) {
                try OwnCloudProviderFactory.endpoints(try #require(URL(string: "http://h/remote.php/caldav/x")))
            }
        }
    }
}
