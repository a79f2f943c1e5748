import Foundation
import ProviderAPI
import ProviderKit
import Testing

@Suite("LocalProvider: listing pages")
struct LocalPagingTests {
    @Test("a cursor of another folder's listing is invalidArgument; the folder's own goes on after its last name")
    func foreignCursor() async throws {
        let box = try Sandbox()
        let provider = box.provider
        _ = try await provider.createFolder(named: "a", in: .root)
        _ = try await provider.createFolder(named: "b", in: .root)
        for name in ["x|1.txt", "y.txt", "z.txt"] {
            _ = try await provider.upload(DataSource(string: name), to: "/a", name: name, options: UploadOptions())
            _ = try await provider.upload(DataSource(string: name), to: "/b", name: name, options: UploadOptions())
        }
        let first = try await provider.list("/a", page: PageRequest(limit: 1))
        #expect(first.items.map(\.name) == ["x|1.txt"])
        let next = try #require(first.next)
        // Before, the cursor was the bare name and /b was paged from it as if it were its own.
        #expect(await code { _ = try await provider.list("/b", page: PageRequest(limit: 1, cursor: next)) } == .invalidArgument)
        #expect(await code { _ = try await provider.list("/a", page: PageRequest(limit: 1, cursor: PageCursor("x|1.txt"))) } == .invalidArgument)
        let rest = try await provider.list("/a", page: PageRequest(limit: 10, cursor: next))
        #expect(rest.items.map(\.name) == ["y.txt", "z.txt"] && rest.next == nil)
    }
}
