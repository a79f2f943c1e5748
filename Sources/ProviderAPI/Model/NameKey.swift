import Foundation

/// A name's identity on one server: two names are the same item there exactly when their keys
/// are equal.
///
/// A key is the UTF-8 bytes of the name after the server's normalisation (none for
/// ``NameRules/Normalization/preserved`` unless ``NameRules/normalizationInsensitive``) and after
/// case folding where the server ignores case. Keys compare, hash and sort by those bytes alone,
/// never by Swift's `String ==`, which calls the NFC and NFD spellings of `café` equal: on a
/// byte-exact server they are two files, and a dictionary keyed by `String` loses one of them.
///
/// ```swift
/// let rules = provider.capabilities.names
/// var seen: [NameKey: Item] = [:]
/// for item in items { seen[rules.key(item.name)] = item }   // one entry per name the server tells apart
/// ```
public struct NameKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The UTF-8 bytes that identify the name.
    public let bytes: [UInt8]

    /// The key of `name` taken byte for byte, as on a case-sensitive server that keeps names as sent.
    public init(exact name: String) { bytes = Array(name.utf8) }

    /// A key of the given bytes.
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// Byte order (`B` before `a`), the order of listings.
    public static func < (lhs: NameKey, rhs: NameKey) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// The key as text (its bytes decoded as UTF-8).
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

extension NameRules {
    /// The identity of `name` on this server: its bytes after the declared normalisation (NFC for
    /// a server that keeps names as sent but calls the two forms one name), lower-cased where the
    /// server ignores case.
    public func key(_ name: String) -> NameKey {
        var stored = self.stored(name)
        if normalization == .preserved, normalizationInsensitive { stored = stored.precomposedStringWithCanonicalMapping }
        if !caseSensitive {
            stored = stored.lowercased()
            // Lower-casing can leave a composed form where the server folds both spellings: fold again.
            if normalization == .nfc || normalizationInsensitive { stored = stored.precomposedStringWithCanonicalMapping }
            if normalization == .nfd { stored = stored.decomposedStringWithCanonicalMapping }
        }
        return NameKey(exact: stored)
    }

    /// Whether the server holds `a` and `b` as one name.
    public func same(_ a: String, _ b: String) -> Bool { key(a) == key(b) }

    /// How names are told apart here, for reports: `case-sensitive, byte-exact`,
    /// `case-insensitive, NFC`, `case-sensitive, NFC and NFD are one name`.
    package var identityDescription: String {
        let letters = caseSensitive ? "case-sensitive" : "case-insensitive"
        switch normalization {
        case .preserved: return letters + (normalizationInsensitive ? ", NFC and NFD are one name" : ", byte-exact")
        case .nfc: return letters + ", NFC"
        case .nfd: return letters + ", NFD"
        }
    }
}
