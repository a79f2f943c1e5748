import Foundation

/// The names a server accepts and how it stores them.
///
/// The conformance suite reads these rules to know which names must
/// round-trip unchanged; `NameEncoder` uses them to map refused characters
/// to look-alikes and back, so that every name still round-trips through the
/// Strata API.
public struct NameRules: Sendable, Hashable {
    /// How the server treats Unicode normalisation of names.
    public enum Normalization: String, Sendable, Hashable {
        /// Names are stored byte for byte: NFC and NFD spellings are different names.
        case preserved
        /// Names are stored in NFC.
        case nfc
        /// Names are stored in NFD.
        case nfd
    }

    /// Characters the server refuses anywhere in a name.
    public var forbiddenCharacters: Set<Character>
    /// Whether a name may start with a space.
    public var allowsLeadingSpace: Bool
    /// Whether a name may end with a space.
    public var allowsTrailingSpace: Bool
    /// Whether a name may end with a dot.
    public var allowsTrailingDot: Bool
    /// Whether names starting with a dot are kept (some servers hide or refuse them).
    public var allowsDotFiles: Bool
    /// The normalisation the server applies.
    public var normalization: Normalization
    /// Whether `a` and `A` are different names.
    public var caseSensitive: Bool
    /// Whether the NFC and NFD spellings of a name are one name although the server keeps the
    /// spelling it was sent (``Normalization/preserved``), as APFS and a case-folding ext4 folder do:
    /// the second spelling finds, or collides with, the first. Meaningless for `.nfc` and `.nfd`,
    /// where the stored form already makes them one.
    public var normalizationInsensitive: Bool
    /// The longest name in UTF-8 bytes.
    public var maxNameBytes: Int

    /// Creates name rules; the defaults are those of a POSIX file system.
    public init(
        forbiddenCharacters: Set<Character> = [], allowsLeadingSpace: Bool = true,
        allowsTrailingSpace: Bool = true, allowsTrailingDot: Bool = true, allowsDotFiles: Bool = true,
        normalization: Normalization = .preserved, caseSensitive: Bool = true, maxNameBytes: Int = 255,
        normalizationInsensitive: Bool = false
    ) {
        self.forbiddenCharacters = forbiddenCharacters
        self.allowsLeadingSpace = allowsLeadingSpace
        self.allowsTrailingSpace = allowsTrailingSpace
        self.allowsTrailingDot = allowsTrailingDot
        self.allowsDotFiles = allowsDotFiles
        self.normalization = normalization
        self.caseSensitive = caseSensitive
        self.normalizationInsensitive = normalizationInsensitive
        self.maxNameBytes = maxNameBytes
    }

    /// Whether the server accepts `name` as it is.
    ///
    /// Checked scalar by scalar, as a server sees the bytes: `"?\u{301}"` contains a `?`
    /// even though Swift counts it as one Character.
    public func accepts(_ name: String) -> Bool {
        if name.utf8.count > maxNameBytes { return false }
        if !forbiddenCharacters.isEmpty, containsForbidden(name) { return false }
        let first = name.unicodeScalars.first
        let last = name.unicodeScalars.last
        if !allowsLeadingSpace, first == " " { return false }
        if !allowsTrailingSpace, last == " " { return false }
        if !allowsTrailingDot, last == "." { return false }
        if !allowsDotFiles, first == "." { return false }
        return true
    }

    /// Whether `name` holds a forbidden character, as a Character or as a scalar of one.
    ///
    /// An ASCII name checked against ASCII characters alone (the usual `\ : * ? " < > |`) is
    /// checked byte by byte: each of its Characters is one scalar (or CR LF, whose scalars are
    /// checked), and no ASCII scalar is canonically equivalent to another, so it is the same test
    /// without a Character's hash per letter (a listing of 10,000 names was paying it twice).
    private func containsForbidden(_ name: String) -> Bool {
        var mask: (low: UInt64, high: UInt64) = (0, 0)
        var asciiOnly = true
        for character in forbiddenCharacters {
            let scalars = character.unicodeScalars
            guard scalars.count == 1, let scalar = scalars.first, scalar.isASCII else {
                asciiOnly = false
                break
            }
            let value = scalar.value
            if value < 64 { mask.low |= 1 << UInt64(value) } else { mask.high |= 1 << UInt64(value - 64) }
        }
        if asciiOnly, name.utf8.allSatisfy({ $0 < 0x80 }) {
            return name.utf8.contains { byte in
                byte < 64 ? mask.low & (1 << UInt64(byte)) != 0 : mask.high & (1 << UInt64(byte - 64)) != 0
            }
        }
        if name.contains(where: { forbiddenCharacters.contains($0) }) { return true }
        return name.unicodeScalars.contains(where: { forbiddenCharacters.contains(Character($0)) })
    }

    /// `name` as the server will store it, after its normalisation.
    public func stored(_ name: String) -> String {
        switch normalization {
        case .preserved: return name
        case .nfc: return name.precomposedStringWithCanonicalMapping
        case .nfd: return name.decomposedStringWithCanonicalMapping
        }
    }
}
