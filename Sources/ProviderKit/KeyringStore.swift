import ProviderAPI

/// A `CredentialStore` in the operating system's keyring: ``SecretServiceCredentialStore`` (the
/// freedesktop Secret Service of Linux desktops: GNOME Keyring, KeePassXC, KWallet's bridge) or,
/// on Apple platforms, `KeychainCredentialStore`.
///
/// A keyring may be absent or silent (no session bus on a server, libsecret not installed, a
/// keyring that cannot be unlocked): ask ``unavailableReason()`` before relying on it, or use
/// ``KeyringOrFileCredentialStore``, which falls back to a 0600 file.
public protocol KeyringStore: CredentialStore {
    /// The keyring's name as its users know it: `Secret Service`, `Keychain`.
    var keyringName: String { get }

    /// `nil` when the keyring answers and can keep logins; else why not, in words (never a secret).
    ///
    /// It does not wait long: a keyring that does not answer within a few seconds is reported
    /// as unavailable.
    func unavailableReason() async -> String?
}

/// Where a saved login is kept (``KeyringOrFileCredentialStore/location(of:)``).
public enum CredentialLocation: Sendable, Hashable, CustomStringConvertible {
    /// In the operating system's keyring, named as ``KeyringStore/keyringName``.
    case keyring(String)
    /// In this file, readable by its owner only (``FileCredentialStore``).
    case file(String)

    /// `keyring` or `file <path>`.
    public var description: String {
        switch self {
        case .keyring: "keyring"
        case .file(let path): "file \(path)"
        }
    }
}
