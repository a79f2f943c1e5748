import Foundation
import ProviderAPI
import Testing
import WebDAVProvider

/// A new file under `ConflictPolicy.fail` (what `copy` and `put` of a folder send for a name the
/// plan saw free) is one `PUT` with `If-None-Match: *` where the server was shown to refuse it over
/// an existing file; elsewhere the name is looked at first. Nothing is overwritten either way.
@Suite("WebDAV exclusive create without a look first")
struct UnseenCreateTests {
    /// A provider whose verdict is known (a first write verified it), and the count of requests so far.
    private func verified(_ server: FakeDAVServer) async throws -> WebDAVProvider {
        let provider = try await WebDAVProvider.connect(server.configuration())
        _ = try await provider.createFolder(named: "d", in: .root)
        #expect(provider.profile.verified.isComplete)
        return provider
    }

    private func methods(_ requests: ArraySlice<String>) -> [String] {
        requests.map { String($0.split(separator: " ").first ?? "") }
    }

    @Test("a server shown to refuse If-None-Match: * over a file: a new file is one PUT")
    func onePut() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1"))
        let provider = try await verified(server)
        #expect(provider.profile.verified.refusesIfNoneMatchStar == true)
        let before = server.requests.count
        _ = try await provider.upload(DataSource(string: "new"), to: "/d", name: "f.txt", options: UploadOptions(conflict: .fail, readBack: false))
        #expect(methods(server.requests.dropFirst(before)) == ["PUT"], "\(server.requests.dropFirst(before))")
        #expect(server.content("/d/f.txt") == "new")
    }

    @Test("a taken name is still refused: a file is kept (alreadyExists), a folder too (conflict)")
    func takenRefused() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1"))
        let provider = try await verified(server)
        _ = try await provider.upload(DataSource(string: "old"), to: "/d", name: "f.txt", options: UploadOptions(conflict: .fail))
        await #expect(throws: ProviderError.self) {
            do {
                _ = try await provider.upload(DataSource(string: "new"), to: "/d", name: "f.txt", options: UploadOptions(conflict: .fail, readBack: false))
            } catch let error as ProviderError {
                #expect(error.code == .alreadyExists)
                throw error
            }
        }
        #expect(server.content("/d/f.txt") == "old")
        _ = try await provider.createFolder(named: "sub", in: "/d")
        await #expect(throws: ProviderError.self) {
            do {
                _ = try await provider.upload(DataSource(string: "new"), to: "/d", name: "sub", options: UploadOptions(conflict: .fail, readBack: false))
            } catch let error as ProviderError {
                #expect(error.code == .conflict)
                throw error
            }
        }
        #expect(server.content("/d/sub") == nil)
        // Rename still finds the next free name.
        let renamed = try await provider.upload(DataSource(string: "new"), to: "/d", name: "f.txt", options: UploadOptions(conflict: .rename))
        #expect(renamed.name == "f (1).txt")
        #expect(server.content("/d/f.txt") == "old")
    }

    @Test("a server not shown to refuse it: the name is looked at first, and a file there is kept")
    func lookedAtElsewhere() async throws {
        let server = FakeDAVServer(.init(server: "Fake/1", honoursPreconditions: false))
        let provider = try await verified(server)
        #expect(provider.profile.verified.refusesIfNoneMatchStar == false)
        _ = try await provider.upload(DataSource(string: "old"), to: "/d", name: "f.txt", options: UploadOptions(conflict: .fail))
        let before = server.requests.count
        await #expect(throws: ProviderError.self) {
            _ = try await provider.upload(DataSource(string: "new"), to: "/d", name: "f.txt", options: UploadOptions(conflict: .fail, readBack: false))
        }
        #expect(methods(server.requests.dropFirst(before)).first == "PROPFIND")
        #expect(server.content("/d/f.txt") == "old")
    }
}
