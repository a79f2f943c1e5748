import Foundation
import ProviderAPI
import Testing
import WebDAVProvider

/// On a server that does not refuse `If-None-Match: *` (nginx, lighttpd), a new file in a folder
/// this provider made (empty when made: the server refuses `MKCOL` over a folder) is one `PUT`
/// under `ConflictPolicy.fail`, without a look at its name; any name it wrote there before, any
/// folder it did not make, and everything after a delete, move or copy are looked at first, and a
/// file there is kept.
@Suite("WebDAV uploads into a folder this provider made")
struct FreshFolderUploadTests {
    /// A server that ignores `If-None-Match: *`, and a provider that verified it (a first write).
    private func ignoringPreconditions(foldsCase: Bool = false) async throws -> (FakeDAVServer, WebDAVProvider) {
        let server = FakeDAVServer(.init(server: "Fake/1", honoursPreconditions: false, foldsCase: foldsCase))
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "verified", in: .root)
        #expect(provider.profile.verified.refusesIfNoneMatchStar == false)
        #expect(provider.profile.verified.mkcolRefusesExisting == true)
        return (server, provider)
    }

    private func methods(_ server: FakeDAVServer, since before: Int) -> [String] {
        server.requests.dropFirst(before).map { String($0.split(separator: " ").first ?? "") }
    }

    private func failing(_ provider: WebDAVProvider, _ text: String, to folder: ItemPath, name: String) async throws {
        _ = try await provider.upload(DataSource(string: text), to: folder, name: name, options: UploadOptions(conflict: .fail, readBack: false))
    }

    private func expectRefused(_ code: ProviderError.Code, _ body: () async throws -> Void) async {
        await #expect(throws: ProviderError.self) {
            do { try await body() } catch let error as ProviderError {
                #expect(error.code == code, "\(error)")
                throw error
            }
        }
    }

    @Test("new names in a folder it made: one PUT each; the same name again is looked at and the file kept")
    func onePutThenLooked() async throws {
        let (server, provider) = try await ignoringPreconditions()
        _ = try await provider.createFolder(named: "new", in: .root)
        let before = server.requests.count
        try await failing(provider, "one", to: "/new", name: "a.txt")
        try await failing(provider, "two", to: "/new", name: "b.txt")
        #expect(methods(server, since: before) == ["PUT", "PUT"], "\(server.requests.dropFirst(before))")
        let again = server.requests.count
        await expectRefused(.alreadyExists) { try await failing(provider, "other", to: "/new", name: "a.txt") }
        #expect(methods(server, since: again).first == "PROPFIND")
        #expect(server.content("/new/a.txt") == "one")
    }

    @Test("a folder it did not make: the name is looked at, and another client's file there is kept")
    func folderNotMade() async throws {
        let (server, provider) = try await ignoringPreconditions()
        let other = try await WebDAVProvider.connect(server.configuration())
        _ = try await other.createFolder(named: "theirs", in: .root)
        _ = try await other.upload(DataSource(string: "theirs"), to: "/theirs", name: "a.txt", options: UploadOptions(conflict: .fail))
        let before = server.requests.count
        await expectRefused(.alreadyExists) { try await failing(provider, "mine", to: "/theirs", name: "a.txt") }
        #expect(methods(server, since: before).first == "PROPFIND")
        #expect(server.content("/theirs/a.txt") == "theirs")
    }

    @Test("a file moved into a folder it made is not taken for a free name: looked at, kept")
    func moveForgets() async throws {
        let (server, provider) = try await ignoringPreconditions()
        _ = try await provider.createFolder(named: "new", in: .root)
        _ = try await provider.upload(DataSource(string: "moved"), to: "/verified", name: "m.txt", options: UploadOptions(conflict: .fail))
        _ = try await provider.move("/verified/m.txt", to: "/new/m.txt", options: TransferOptions())
        await expectRefused(.alreadyExists) { try await failing(provider, "new", to: "/new", name: "m.txt") }
        #expect(server.content("/new/m.txt") == "moved")
    }

    @Test("a case-folding server: another spelling of a name it wrote is looked at, and the file kept")
    func foldedName() async throws {
        let (server, provider) = try await ignoringPreconditions(foldsCase: true)
        _ = try await provider.createFolder(named: "new", in: .root)
        try await failing(provider, "upper", to: "/new", name: "Report.TXT")
        let before = server.requests.count
        await expectRefused(.alreadyExists) { try await failing(provider, "lower", to: "/new", name: "report.txt") }
        #expect(methods(server, since: before).first == "PROPFIND")
        #expect(server.filePaths.filter { $0.lowercased() == "/new/report.txt" }.count == 1)
        #expect(server.content("/new/Report.TXT") == "upper")
    }
}
