import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit
import Testing

/// A keyring for the fallback's tests: it answers or not, and may refuse to store.
private struct ScriptedKeyring: KeyringStore {
    var reason: String?
    var refusesWrites = false
    let entries = NIOLockedValueBox<[String: Credentials]>([:])
    let asked = NIOLockedValueBox(0)

    var keyringName: String { "Scripted" }

    func unavailableReason() async -> String? {
        asked.withLockedValue { $0 += 1 }
        return reason
    }

    func credentials(for key: String) async throws -> Credentials? {
        guard reason == nil else { throw ProviderError(.unsupported, "not answering") }
        return entries.withLockedValue { $0[key] }
    }

    func setCredentials(_ credentials: Credentials?, for key: String) async throws {
        guard reason == nil else { throw ProviderError(.unsupported, "not answering") }
        if refusesWrites { throw ProviderError(.forbidden, "the prompt was dismissed") }
        entries.withLockedValue { $0[key] = credentials }
    }

    func keys() async throws -> [String] {
        guard reason == nil else { throw ProviderError(.unsupported, "not answering") }
        return entries.withLockedValue { $0.keys.sorted() }
    }
}

@Suite("Keyring fallback: the 0600 file when no keyring answers")
struct KeyringFallbackTests {
    @Test("no keyring answering: logins go to the file, and the fallback is told once, with the reason")
    func fallbackToldOnce() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = FileCredentialStore(url: dir.file("credentials.json"))
        let keyring = ScriptedKeyring(reason: "no session bus")
        let told = NIOLockedValueBox<[String]>([])
        let store = KeyringOrFileCredentialStore(keyring: keyring, file: file) { reason in told.withLockedValue { $0.append(reason) } }

        #expect(try await store.credentials(for: "work") == nil)
        #expect(told.withLockedValue { $0 }.isEmpty, "reading is not news")
        try await store.setCredentials(.basic(username: "ann", password: "p1"), for: "work")
        try await store.setCredentials(.token("t"), for: "cloud")
        try await store.setCredentials(.basic(username: "ann", password: "p2"), for: "work")
        #expect(told.withLockedValue { $0 } == ["no session bus"])
        #expect(keyring.asked.withLockedValue { $0 } == 1, "the keyring is asked once per store")
        #expect(try await file.credentials(for: "work") == .basic(username: "ann", password: "p2"))
        #expect(try await store.keys() == ["cloud", "work"])
        #expect(try await store.location(of: "cloud") == .file(dir.file("credentials.json").path))
        #expect(await store.keyringUnavailableReason() == "no session bus")
        try await store.setCredentials(nil, for: "work")
        #expect(try await file.keys() == ["cloud"])
    }

    @Test("no keyring given (STRATA_KEYRING=file): the file, and nothing to tell")
    func fileChosen() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let told = NIOLockedValueBox(0)
        let store = KeyringOrFileCredentialStore(keyring: nil, file: FileCredentialStore(url: dir.file("credentials.json"))) { _ in
            told.withLockedValue { $0 += 1 }
        }
        try await store.setCredentials(.token("t"), for: "k")
        #expect(try await store.credentials(for: "k") == .token("t"))
        #expect(told.withLockedValue { $0 } == 0)
    }

    @Test("removing a login that is in neither place writes no file")
    func removeNothing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = KeyringOrFileCredentialStore(keyring: ScriptedKeyring(reason: "none"), file: FileCredentialStore(url: dir.file("credentials.json")))
        try await store.setCredentials(nil, for: "work")
        #expect(!FileManager.default.fileExists(atPath: dir.file("credentials.json").path))
    }

    @Test("a keyring that answers but refuses the write: the save fails, and the file is untouched")
    func refusedWriteIsAnError() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = FileCredentialStore(url: dir.file("credentials.json"))
        try await file.setCredentials(.basic(username: "ann", password: "old"), for: "work")
        let told = NIOLockedValueBox(0)
        let store = KeyringOrFileCredentialStore(keyring: ScriptedKeyring(reason: nil, refusesWrites: true), file: file) { _ in
            told.withLockedValue { $0 += 1 }
        }
        let error = await #expect(throws: ProviderError.self) {
            try await store.setCredentials(.basic(username: "ann", password: "new"), for: "work")
        }
        #expect(error?.code == .forbidden)
        // The old login is not lost, and the new one is not put in the file behind the user's back.
        #expect(try await file.credentials(for: "work") == .basic(username: "ann", password: "old"))
        #expect(told.withLockedValue { $0 } == 0)
    }

    @Test("the keyring's copy wins over a stale one in the file")
    func keyringFirst() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = FileCredentialStore(url: dir.file("credentials.json"))
        try await file.setCredentials(.basic(username: "ann", password: "stale"), for: "work")
        let keyring = ScriptedKeyring(reason: nil)
        keyring.entries.withLockedValue { $0["work"] = .basic(username: "ann", password: "fresh") }
        let store = KeyringOrFileCredentialStore(keyring: keyring, file: file)
        #expect(try await store.credentials(for: "work") == .basic(username: "ann", password: "fresh"))
        #expect(try await store.location(of: "work") == .keyring("Scripted"))
    }

    #if !canImport(Darwin)
        @Test("without a session bus the Secret Service is unavailable at once, and no D-Bus daemon is launched")
        func noSessionBus() async throws {
            var keyring = SecretServiceCredentialStore(scope: "test-\(UUID().uuidString)")
            keyring.environment = ["DISPLAY": ":0", "XDG_RUNTIME_DIR": "/nonexistent-runtime"]
            let reason = await keyring.unavailableReason()
            #expect(reason?.contains("DBUS_SESSION_BUS_ADDRESS") == true, "\(reason ?? "nil")")
            let error = await #expect(throws: ProviderError.self) { try await keyring.keys() }
            #expect(error?.code == .unsupported)
        }

        @Test("a runtime folder's bus is used only when it is a socket")
        func runtimeBus() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            #expect(SecretServiceCredentialStore.missingBus(["XDG_RUNTIME_DIR": dir.url.path]) != nil)
            try Data().write(to: dir.file("bus"))
            #expect(SecretServiceCredentialStore.missingBus(["XDG_RUNTIME_DIR": dir.url.path]) != nil, "a plain file is no bus")
            #expect(SecretServiceCredentialStore.missingBus(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]) == nil)
            #expect(SecretServiceCredentialStore.missingBus(["DBUS_SESSION_BUS_ADDRESS": ""]) != nil)
        }
    #endif
}
