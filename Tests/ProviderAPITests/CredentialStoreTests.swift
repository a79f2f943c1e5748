import Foundation
import ProviderAPI
import ProviderKit
import Testing

private func mode(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    let permissions = try #require(attributes[.posixPermissions] as? NSNumber)
    return permissions.intValue & 0o777
}

@Suite("Credential stores")
struct CredentialStoreTests {
    @Test("FileCredentialStore creates its file with mode 0600 and round-trips credentials")
    func fileRoundTrip() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.url.appendingPathComponent("config/strata/credentials.json")
        let store = FileCredentialStore(url: file)
        #expect(try await store.credentials(for: "work") == nil)
        #expect(try await store.keys() == [])
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing is written by reading")

        try await store.setCredentials(.basic(username: "ann", password: "hunter2"), for: "work")
        try await store.setCredentials(.bearer(accessToken: "at", refreshToken: "rt"), for: "cloud")
        #expect(try mode(of: file) == 0o600)
        #expect(try mode(of: file.deletingLastPathComponent()) == 0o700)
        #expect(try await store.credentials(for: "work") == .basic(username: "ann", password: "hunter2"))
        #expect(try await store.credentials(for: "cloud") == .bearer(accessToken: "at", refreshToken: "rt"))
        #expect(try await store.keys() == ["cloud", "work"])

        // A second store on the same file sees the same entries.
        let again = FileCredentialStore(url: file)
        #expect(try await again.credentials(for: "work") == .basic(username: "ann", password: "hunter2"))

        try await store.setCredentials(nil, for: "work")
        #expect(try await store.credentials(for: "work") == nil)
        #expect(try await store.keys() == ["cloud"])
        #expect(try mode(of: file) == 0o600)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["credentials.json"])
    }

    @Test("FileCredentialStore refuses a file others can read", arguments: [0o644, 0o640, 0o604, 0o660, 0o602])
    func looseMode(_ mode: Int) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("credentials.json")
        let store = FileCredentialStore(url: file)
        try await store.setCredentials(.token("t"), for: "k")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        let error = await #expect(throws: ProviderError.self) { try await store.credentials(for: "k") }
        #expect(error?.code == .forbidden)
        await #expect(throws: ProviderError.self) { try await store.keys() }
        await #expect(throws: ProviderError.self) { try await store.setCredentials(.token("u"), for: "k") }
        // Tightening the mode makes it usable again.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try await store.credentials(for: "k") == .token("t"))
    }

    @Test("FileCredentialStore reports a corrupt file as invalidResponse and does not echo it")
    func corrupt() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("credentials.json")
        try Data(#"{"work": {"basic": {"username": "ann", "password": "hunter2""#.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let store = FileCredentialStore(url: file)
        let error = await #expect(throws: ProviderError.self) { try await store.credentials(for: "work") }
        #expect(error?.code == .invalidResponse)
        #expect(!(error?.description.contains("hunter2") ?? true))
    }

    @Test("InMemoryCredentialStore basics")
    func inMemory() async throws {
        let store = InMemoryCredentialStore()
        #expect(try await store.keys() == [])
        try await store.setCredentials(.token("b"), for: "beta")
        try await store.setCredentials(.appPassword(username: "u", password: "p"), for: "alpha")
        #expect(try await store.keys() == ["alpha", "beta"])
        #expect(try await store.credentials(for: "beta") == .token("b"))
        try await store.setCredentials(.token("c"), for: "beta")
        #expect(try await store.credentials(for: "beta") == .token("c"))
        try await store.setCredentials(nil, for: "beta")
        #expect(try await store.credentials(for: "beta") == nil)
        #expect(try await store.keys() == ["alpha"])
    }
}
