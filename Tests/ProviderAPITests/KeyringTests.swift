import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit
import StrataProcessKit
import StrataTestSupport
import Testing

/// The keyring stores against a real Secret Service: the gnome-keyring that `scripts/test` and
/// `scripts/with-servers` start on a session bus of their own. Each test works in a scope of its
/// own, so that tests running at once never see each other's items.
@Suite("KeyringTests: the Secret Service through libsecret")
struct KeyringTests {
    private func store() -> SecretServiceCredentialStore {
        SecretServiceCredentialStore(application: "strata", scope: "test-\(UUID().uuidString)")
    }

    @Test("save, read, overwrite, list and remove logins, each one item of the Secret Service", .testKeyring)
    func roundTrip() async throws {
        try TestKeyring.require()
        let keyring = store()
        let reason = await keyring.unavailableReason()
        #expect(reason == nil, "the test keyring should answer: \(reason ?? "")")
        #expect(try await keyring.keys() == [])
        #expect(try await keyring.credentials(for: "work") == nil)

        try await keyring.setCredentials(.basic(username: "ann", password: "hunter2"), for: "work")
        try await keyring.setCredentials(.bearer(accessToken: "at", refreshToken: "rt"), for: "cloud")
        #expect(try await keyring.credentials(for: "work") == .basic(username: "ann", password: "hunter2"))
        #expect(try await keyring.credentials(for: "cloud") == .bearer(accessToken: "at", refreshToken: "rt"))
        #expect(try await keyring.keys() == ["cloud", "work"])

        // Overwriting replaces the item: one item, the new secret.
        try await keyring.setCredentials(.appPassword(username: "ann", password: "app-pass"), for: "work")
        #expect(try await keyring.credentials(for: "work") == .appPassword(username: "ann", password: "app-pass"))
        #expect(try await keyring.keys() == ["cloud", "work"])

        // It really is in the Secret Service: secret-tool reads it by its attributes, with its label.
        let lookup = try await SecretTool.run(["lookup", "application", "strata", "remote", "work", "scope", keyring.scope])
        #expect(lookup.status == 0, "\(lookup.output)")
        #expect(lookup.output.contains("app-pass") && !lookup.output.contains("hunter2"))
        let search = try await SecretTool.run(["search", "--all", "application", "strata", "scope", keyring.scope])
        #expect(search.output.components(separatedBy: "label = ").count - 1 == 2, "\(search.output)")
        #expect(search.output.contains("label = Strata login for work"))
        #expect(search.output.contains("attribute.remote = cloud"))

        // A second store of the same scope sees the items; one of another scope does not.
        let again = SecretServiceCredentialStore(application: "strata", scope: keyring.scope)
        #expect(try await again.credentials(for: "cloud") == .bearer(accessToken: "at", refreshToken: "rt"))
        let other = store()
        #expect(try await other.credentials(for: "work") == nil)
        #expect(try await other.keys() == [])

        try await keyring.setCredentials(nil, for: "work")
        #expect(try await keyring.credentials(for: "work") == nil)
        #expect(try await keyring.keys() == ["cloud"])
        let gone = try await SecretTool.run(["lookup", "application", "strata", "remote", "work", "scope", keyring.scope])
        #expect(gone.status != 0 && gone.output.isEmpty)
        // Removing what is not there is no error.
        try await keyring.setCredentials(nil, for: "never-saved")
        try await keyring.setCredentials(nil, for: "cloud")
        #expect(try await keyring.keys() == [])
    }

    @Test("an item that is not a Strata login is invalidResponse, without its secret in the message", .testKeyring)
    func foreignItem() async throws {
        try TestKeyring.require()
        let keyring = store()
        // An item with a login's attributes and schema, but not a login's JSON.
        let stored = try await SecretTool.store(
            "not-json-s3cret", label: "foreign",
            attributes: ["application", "strata", "remote", "odd", "scope", keyring.scope, "xdg:schema", "org.strata.Login"])
        #expect(stored.status == 0, "\(stored.output)")
        let error = await #expect(throws: ProviderError.self) { try await keyring.credentials(for: "odd") }
        #expect(error?.code == .invalidResponse)
        #expect(!(error?.description.contains("s3cret") ?? true))
        try await keyring.setCredentials(nil, for: "odd")
    }

    @Test("logins in the file stay readable; saving moves one into the keyring and out of the file", .testKeyring)
    func migrationFromFile() async throws {
        try TestKeyring.require()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = FileCredentialStore(url: dir.file("credentials.json"))
        try await file.setCredentials(.basic(username: "old", password: "from-file"), for: "old")
        try await file.setCredentials(.token("other-token"), for: "other")
        let told = NIOLockedValueBox(0)
        let keyring = store()
        let store = KeyringOrFileCredentialStore(keyring: keyring, file: file) { _ in told.withLockedValue { $0 += 1 } }

        let reason = await store.keyringUnavailableReason()
        #expect(reason == nil, "the test keyring should answer: \(reason ?? "")")
        #expect(try await store.credentials(for: "old") == .basic(username: "old", password: "from-file"))
        #expect(try await store.location(of: "old") == .file(dir.file("credentials.json").path))

        try await store.setCredentials(.basic(username: "old", password: "now-in-keyring"), for: "old")
        #expect(try await keyring.credentials(for: "old") == .basic(username: "old", password: "now-in-keyring"))
        #expect(try await file.credentials(for: "old") == nil, "the file's copy is removed once the keyring holds it")
        #expect(try await file.credentials(for: "other") == .token("other-token"), "the file's other logins stay")
        #expect(try await store.location(of: "old") == .keyring("Secret Service"))
        #expect(try await store.location(of: "other") == .file(dir.file("credentials.json").path))
        #expect(try await store.keys() == ["old", "other"])
        #expect(try String(contentsOf: dir.file("credentials.json"), encoding: .utf8).contains("now-in-keyring") == false)

        // Removing removes from both; a file without the key is not written.
        try await store.setCredentials(nil, for: "old")
        #expect(try await store.credentials(for: "old") == nil)
        try await store.setCredentials(nil, for: "other")
        #expect(try await file.keys() == [])
        #expect(told.withLockedValue { $0 } == 0, "the keyring answered: no fallback to tell")
    }

    @Test("a login saved while the keyring answers never creates the file", .testKeyring)
    func noFileCreated() async throws {
        try TestKeyring.require()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = FileCredentialStore(url: dir.file("config/credentials.json"))
        let keyring = store()
        let store = KeyringOrFileCredentialStore(keyring: keyring, file: file)
        try await store.setCredentials(.basic(username: "u", password: "p"), for: "work")
        #expect(!FileManager.default.fileExists(atPath: dir.file("config/credentials.json").path))
        #expect(try await store.credentials(for: "work") == .basic(username: "u", password: "p"))
        try await store.setCredentials(nil, for: "work")
        #expect(!FileManager.default.fileExists(atPath: dir.file("config/credentials.json").path))
        #expect(try await keyring.keys() == [])
    }
}
