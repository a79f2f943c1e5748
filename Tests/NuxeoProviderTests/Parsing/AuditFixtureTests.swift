import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider

extension Parsing {
    @Suite("audit recording") struct AuditFixtureTests {
        @Test("php-client/audit-query.json: the bare Audit.Query array, with epoch-millisecond dates")
        func auditQuery() throws {
            let data = try Fixtures.data("php-client/audit-query.json")
            let list = try NuxeoLogEntryList.decode(data)
            #expect(list.entries.count == 2)
            let created = list.entries[0]
            #expect(created.eventId == "documentCreated")
            #expect(created.category == "eventDocumentCategory")
            #expect(created.eventDate == Fixtures.date(1_424_792_290.472))
            #expect(created.principalName == "Administrator")
            #expect(created.docUUID == "941f5101-4242-40e3-b212-5e8255483ec3")
            #expect(created.docType == "UserWorkspacesRoot")
            #expect(created.docPath == "/default-domain/UserWorkspaces")
            #expect(created.docLifeCycle == "project")
            #expect(created.repositoryId == "default")
            #expect(created.comment == nil)
            let login = list.entries[1]
            #expect(login.eventId == "loginSuccess")
            #expect(login.category == "NuxeoAuthentication")
            #expect(login.eventDate == Fixtures.date(1_424_818_455.877))
            #expect(login.comment == "Administrator successfully logged in using FORM_AUTHAuthentication")
            #expect(login.docUUID == nil)
            // the registry recognises the bare array too
            guard case .logEntries(let viaRegistry) = try NuxeoEntityRegistry.standard.decode(data) else {
                Issue.record("audit-query.json should decode as logEntries")
                return
            }
            #expect(viaRegistry == list)
        }
    }
}
