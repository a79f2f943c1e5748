import Foundation
import ProviderAPI
import SharedCache
import Testing

@Suite("CacheStore as a ServerFactStore")
struct ServerFactStoreTests {
    @Test("a fact is kept by kind, server and user, replaced by a newer one, seen by the next opening, and cleared")
    func keepReplaceClear() async throws {
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let store = try CacheStore(directory: dir.url)
        let first = ServerFact(
            kind: "webdav.verified", server: "http://127.0.0.1:8080/", user: "ann", value: Data("one".utf8),
            learntAt: Date(timeIntervalSince1970: 1_700_000_000))
        try await store.remember(first)
        #expect(try await store.fact("webdav.verified", server: "http://127.0.0.1:8080/", user: "ann") == first)
        #expect(try await store.fact("webdav.verified", server: "http://127.0.0.1:8080/", user: "bob") == nil)
        #expect(try await store.fact("webdav.verified", server: "http://127.0.0.1:9090/", user: "ann") == nil)
        #expect(try await store.fact("other", server: "http://127.0.0.1:8080/", user: "ann") == nil)

        var second = first
        second.value = Data("two".utf8)
        second.learntAt = Date(timeIntervalSince1970: 1_700_000_100)
        try await store.remember(second)
        // Another process opening the same folder reads what this one kept.
        let reopened = try CacheStore(directory: dir.url)
        #expect(try await reopened.fact("webdav.verified", server: "http://127.0.0.1:8080/", user: "ann") == second)

        try await reopened.clear()
        #expect(try await store.fact("webdav.verified", server: "http://127.0.0.1:8080/", user: "ann") == nil)
    }
}
