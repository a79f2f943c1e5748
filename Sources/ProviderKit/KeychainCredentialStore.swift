#if canImport(Security)
    import Foundation
    import ProviderAPI
    import Security

    /// Credentials in the Keychain of Apple platforms: one generic password item per key, of
    /// service `strata` (the `application` given; `application:scope` when a scope is given, so
    /// that stores of different scopes never see each other's items) and account the key,
    /// labelled "Strata login for *key*", holding the credentials' JSON.
    ///
    /// The items are in the login keychain on macOS (the data protection keychain needs an
    /// entitlement an unsigned command-line tool does not have) and in the app's keychain on iOS;
    /// they are readable after the device's first unlock and never leave the device
    /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`). On macOS a binary other than the one
    /// that saved an item (a rebuilt one included) is asked, by the system, for the user's consent.
    /// The Security calls may block, so they run on swift-nio's blocking thread pool.
    ///
    /// Written from Apple's documentation of `SecItemAdd`, `SecItemCopyMatching`,
    /// `SecItemUpdate` and `SecItemDelete`; Strata's CI runs on Linux, where this type does not exist.
    public struct KeychainCredentialStore: KeyringStore {
        /// The items' service.
        public let service: String
        /// The name in the items' labels ("*name* login for *key*").
        public let displayName: String

        /// A store of the items of `application` and `scope`, labelled with `displayName`.
        public init(application: String = "strata", scope: String = "", displayName: String = "Strata") {
            service = scope.isEmpty ? application : "\(application):\(scope)"
            self.displayName = displayName
        }

        public var keyringName: String { "Keychain" }

        public func unavailableReason() async -> String? {
            let service = service
            do {
                let status = try await BlockingIO.run { () -> OSStatus in
                    var query = Self.query(service: service, account: nil)
                    query[kSecMatchLimit as String] = kSecMatchLimitOne
                    return SecItemCopyMatching(query as CFDictionary, nil)
                }
                switch status {
                case errSecSuccess, errSecItemNotFound: return nil
                default: return Self.text(status)
                }
            } catch {
                return "\(error)"
            }
        }

        public func credentials(for key: String) async throws -> Credentials? {
            let service = service
            let data = try await BlockingIO.run { () -> Data? in
                var query = Self.query(service: service, account: key)
                query[kSecMatchLimit as String] = kSecMatchLimitOne
                query[kSecReturnData as String] = true
                var result: CFTypeRef?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                if status == errSecItemNotFound { return nil }
                guard status == errSecSuccess else { throw Self.error(status, "read the login for \(key)") }
                guard let data = result as? Data else {
                    throw ProviderError(.invalidResponse, "the Keychain's item for \(key) holds no data")
                }
                return data
            }
            guard let data else { return nil }
            do {
                return try JSONDecoder().decode(Credentials.self, from: data)
            } catch {
                throw ProviderError(.invalidResponse, "the Keychain's item for \(key) does not hold a Strata login")
            }
        }

        public func setCredentials(_ credentials: Credentials?, for key: String) async throws {
            let service = service
            guard let credentials else {
                try await BlockingIO.run {
                    let status = SecItemDelete(Self.query(service: service, account: key) as CFDictionary)
                    guard status == errSecSuccess || status == errSecItemNotFound else {
                        throw Self.error(status, "remove the login for \(key)")
                    }
                }
                return
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(credentials)
            let label = "\(displayName) login for \(key)"
            try await BlockingIO.run {
                let query = Self.query(service: service, account: key)
                // Update the item in place when it exists (keeping its access list), else add it.
                let changes: [String: Any] = [kSecValueData as String: data, kSecAttrLabel as String: label]
                let updated = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
                if updated == errSecSuccess { return }
                guard updated == errSecItemNotFound else { throw Self.error(updated, "store the login for \(key)") }
                var item = query
                item[kSecValueData as String] = data
                item[kSecAttrLabel as String] = label
                item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                let added = SecItemAdd(item as CFDictionary, nil)
                guard added == errSecSuccess else { throw Self.error(added, "store the login for \(key)") }
            }
        }

        public func keys() async throws -> [String] {
            let service = service
            return try await BlockingIO.run { () -> [String] in
                var query = Self.query(service: service, account: nil)
                query[kSecMatchLimit as String] = kSecMatchLimitAll
                query[kSecReturnAttributes as String] = true
                var result: CFTypeRef?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                if status == errSecItemNotFound { return [] }
                guard status == errSecSuccess else { throw Self.error(status, "list the saved logins") }
                let items = result as? [[String: Any]] ?? []
                return Set(items.compactMap { $0[kSecAttrAccount as String] as? String }).sorted()
            }
        }

        /// The query of the generic password items of `service` (and `account`, when given).
        private static func query(service: String, account: String?) -> [String: Any] {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
            if let account { query[kSecAttrAccount as String] = account }
            return query
        }

        /// The system's text for `status`.
        private static func text(_ status: OSStatus) -> String {
            (SecCopyErrorMessageString(status, nil) as String?) ?? "error \(status)"
        }

        private static func error(_ status: OSStatus, _ doing: String) -> ProviderError {
            let code: ProviderError.Code =
                switch status {
                case errSecUserCanceled, errSecAuthFailed, errSecInteractionNotAllowed: .forbidden
                default: .unsupported
                }
            return ProviderError(code, "the Keychain could not \(doing): \(text(status)) (\(status))")
        }
    }
#endif
