internal import CProviderKitShims
import Foundation
import NIOConcurrencyHelpers
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Credentials in the freedesktop Secret Service (GNOME Keyring, KeePassXC, KWallet 5.97+): the
/// keyring of Linux desktops, reached over the session D-Bus through libsecret.
///
/// Each key is one item of the user's default collection (the login keyring), labelled
/// "Strata login for *key*" and found by its attributes: `application` (`strata` unless given),
/// `remote` (the key) and `scope` (empty unless given: stores of different scopes, such as two
/// configuration folders, never see each other's items). The item's secret is the credentials'
/// JSON, as ``FileCredentialStore`` writes it. The schema is `org.strata.Login`, so that
/// `secret-tool lookup application strata remote work` reads an item back.
///
/// libsecret (`libsecret-1.so.0`) is loaded when first needed: the build does not need it, and
/// a system without it reports the keyring as unavailable (``unavailableReason()``). So does one
/// without a session bus (`DBUS_SESSION_BUS_ADDRESS` unset, and no `$XDG_RUNTIME_DIR/bus`: no
/// D-Bus daemon is launched), one whose bus has no Secret Service, or one whose service has no
/// default collection. A locked collection is available: reading or writing one of its items
/// asks the user to unlock it, as every libsecret client does.
///
/// The calls block (D-Bus round trips, possibly a prompt), so they run on two threads of their
/// own (a swift-nio thread pool apart from the one file work shares), never on the caller's
/// thread; each gives up after a deadline (a few seconds for
/// ``unavailableReason()``, two minutes for an operation, which may wait for the user to unlock
/// the keyring) or when its task is cancelled.
///
/// ```swift
/// let keyring = SecretServiceCredentialStore()
/// if await keyring.unavailableReason() == nil {
///     try await keyring.setCredentials(.basic(username: "ann", password: password), for: "work")
/// }
/// ```
public struct SecretServiceCredentialStore: KeyringStore {
    /// The `application` attribute of the items.
    public let application: String
    /// The `scope` attribute of the items.
    public let scope: String
    /// The name in the items' labels ("*name* login for *key*").
    public let displayName: String

    /// How long ``unavailableReason()`` waits for the service to answer.
    package var answerTimeout: Duration = .seconds(5)
    /// How long an operation waits (an unlock prompt included).
    package var operationTimeout: Duration = .seconds(120)
    /// The environment whose session bus is checked (the process's).
    package var environment: [String: String] = ProcessInfo.processInfo.environment

    /// A store of the items of `application` and `scope`, labelled with `displayName`.
    public init(application: String = "strata", scope: String = "", displayName: String = "Strata") {
        self.application = application
        self.scope = scope
        self.displayName = displayName
    }

    public var keyringName: String { "Secret Service" }

    public func unavailableReason() async -> String? {
        if let reason = Self.loadFailure() { return reason }
        if let reason = Self.missingBus(environment) { return reason }
        do {
            try await SecretServiceCall(timeout: answerTimeout, doing: "open the default collection").run { cancellable, message in
                cproviderkit_secret_check(cancellable, message)
            }
            return nil
        } catch let error as ProviderError {
            return error.message ?? "\(error.code)"
        } catch {
            return "\(error)"
        }
    }

    public func credentials(for key: String) async throws -> Credentials? {
        let (names, values) = attributes(key)
        let found = NIOLockedValueBox<String?>(nil)
        try await call("read the login for \(key)") { cancellable, message in
            SecretServiceCall.withCStrings(names) { names in
                SecretServiceCall.withCStrings(values) { values in
                    var secret: UnsafeMutablePointer<CChar>?
                    let status = cproviderkit_secret_lookup(names, values, 3, &secret, cancellable, message)
                    if let secret {
                        found.withLockedValue { $0 = String(cString: secret) }
                        cproviderkit_secret_free(secret)
                    }
                    return status
                }
            }
        }
        guard let text = found.withLockedValue({ $0 }) else { return nil }
        do {
            return try JSONDecoder().decode(Credentials.self, from: Data(text.utf8))
        } catch {
            throw ProviderError(.invalidResponse, "the Secret Service's item for \(key) does not hold a Strata login")
        }
    }

    public func setCredentials(_ credentials: Credentials?, for key: String) async throws {
        let (names, values) = attributes(key)
        guard let credentials else {
            try await call("remove the login for \(key)") { cancellable, message in
                SecretServiceCall.withCStrings(names) { names in
                    SecretServiceCall.withCStrings(values) { values in
                        cproviderkit_secret_clear(names, values, 3, cancellable, message)
                    }
                }
            }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let secret = String(decoding: try encoder.encode(credentials), as: UTF8.self)
        let label = "\(displayName) login for \(key)"
        try await call("store the login for \(key)") { cancellable, message in
            SecretServiceCall.withCStrings(names) { names in
                SecretServiceCall.withCStrings(values) { values in
                    SecretServiceCall.withCStrings([label, secret]) { texts in
                        cproviderkit_secret_store(names, values, 3, texts?[0], texts?[1], cancellable, message)
                    }
                }
            }
        }
    }

    public func keys() async throws -> [String] {
        let names = ["application", "scope"]
        let values = [application, scope]
        let found = NIOLockedValueBox<[String]>([])
        try await call("list the saved logins") { cancellable, message in
            SecretServiceCall.withCStrings(names) { names in
                SecretServiceCall.withCStrings(values) { values in
                    var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
                    var count: Int32 = 0
                    let status = cproviderkit_secret_search(names, values, 2, "remote", &list, &count, cancellable, message)
                    if let list {
                        let keys = (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
                        found.withLockedValue { $0 = keys }
                        cproviderkit_secret_free_list(list, count)
                    }
                    return status
                }
            }
        }
        return Set(found.withLockedValue { $0 }).sorted()
    }

    /// The attributes of the item of `key`, names and values in the same order (3 of them).
    private func attributes(_ key: String) -> ([String], [String]) {
        (["application", "remote", "scope"], [application, key, scope])
    }

    private func call(_ doing: String, _ body: @escaping SecretServiceCall.Body) async throws {
        if let reason = Self.loadFailure() { throw ProviderError(.unsupported, "the Secret Service cannot be used: \(reason)") }
        if let reason = Self.missingBus(environment) { throw ProviderError(.unsupported, "the Secret Service cannot be used: \(reason)") }
        try await SecretServiceCall(timeout: operationTimeout, doing: doing).run(body)
    }

    /// Why libsecret cannot be loaded, or `nil` when it is.
    private static func loadFailure() -> String? {
        cproviderkit_secret_load().map { String(cString: $0) }
    }

    /// Why there is no session bus to ask, or `nil` when there may be one. Without
    /// `DBUS_SESSION_BUS_ADDRESS`, GLib tries `$XDG_RUNTIME_DIR/bus` and then launches a bus
    /// daemon of its own (`dbus-launch --autolaunch`): that is never wanted, so without either no
    /// call is made.
    package static func missingBus(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return nil }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            var info = stat()
            // A socket (S_ISSOCK).
            if stat(runtime + "/bus", &info) == 0, info.st_mode & 0o170000 == 0o140000 { return nil }
        }
        return "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
    }
}
