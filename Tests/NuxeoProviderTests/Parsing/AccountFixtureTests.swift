import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

extension Parsing {
    @Suite("login, user and CMIS recordings") struct AccountFixtureTests {
        @Test("php-client/login.json")
        func login() throws {
            guard case .login(let login) = try NuxeoEntityRegistry.standard.decode(try Fixtures.data("php-client/login.json")) else {
                Issue.record("login.json did not decode as a login entity")
                return
            }
            #expect(login.username == "Administrator")
            #expect(login.isAdministrator == true)
            #expect(login.groups == ["administrators"])
        }

        @Test("php-client/user.json")
        func user() throws {
            let user = try NuxeoEntityRegistry.standard.decode(NuxeoUser.self, from: try Fixtures.data("php-client/user.json"))
            #expect(user.id == "Administrator")
            #expect(user.username == "Administrator")
            #expect(user.firstName == "Magnus")
            #expect(user.lastName == "Pontificus")
            #expect(user.company == "Skynet")
            #expect(user.email == "Administrator@example.com")
            #expect(user.groups == ["administrators", "mobilityExperts"])
            #expect(user.properties["tenantId"] == .null)
            #expect(user.extendedGroups.map(\.name) == ["administrators", "mobilityExperts", "MobilityDepartment"])
            #expect(user.extendedGroups[1].label == "Mobility Experts")
            #expect(user.extendedGroups[2].url == "group/MobilityDepartment")
            #expect(user.isAdministrator == true)
            #expect(user.isAnonymous == false)
        }

        @Test("php-client/cmis.json: the version probe")
        func cmis() throws {
            let info = try NuxeoCMISRepositoryInfo.decode(try Fixtures.data("php-client/cmis.json"))
            #expect(info.repositoryId == "default")
            #expect(info.repositoryName == "Nuxeo Repository default")
            #expect(info.vendorName == "Nuxeo")
            #expect(info.productName == "Nuxeo OpenCMIS Connector")
            #expect(info.productVersion == "9.10")
            #expect(info.majorVersion == 9)
            #expect(info.rootFolderId == "c4c80994-ffc1-4f34-994c-8c45061306ff")
            #expect(info.latestChangeLogToken == "419")
            #expect(info.cmisVersionSupported == "1.1")
            #expect(info.thinClientURI == "http://localhost:8080/nuxeo/")
            #expect(throws: ProviderError.self) {
                try NuxeoCMISRepositoryInfo.decode(try Fixtures.data("php-client/cmis.json"), repository: "other")
            }
            // it has no entity-type: the registry keeps it whole
            let entity = try NuxeoEntityRegistry.standard.decode(try Fixtures.data("php-client/cmis.json"))
            guard case .unknown(let type, let json) = entity else {
                Issue.record("cmis.json should decode as unknown")
                return
            }
            #expect(type == nil)
            #expect(json["default"]?["productVersion"] == .string("9.10"))
        }
    }
}
