import ProviderAPI

/// The destination's names for the source's: each name read from the source is first decoded by
/// the source's rules (a look-alike of a character the source refuses stands for that character:
/// rclone's model, each side's encoding undone on read), then encoded for the destination with
/// `NameEncoder` (unchanged where the destination accepts it and would not decode it as another);
/// and the key under which the destination stores a name
/// (after its normalisation, folded when it ignores case), to match the two sides' listings.
struct DestinationNames: Sendable {
    let rules: NameRules
    let encoder: NameEncoder
    /// The source's rules, by which names read from the source are decoded.
    let sourceRules: NameRules
    let sourceEncoder: NameEncoder

    init(rules: NameRules, sourceRules: NameRules = NameRules()) {
        self.rules = rules
        encoder = NameEncoder(rules: rules)
        self.sourceRules = sourceRules
        sourceEncoder = NameEncoder(rules: sourceRules)
    }

    /// The name to give an item the source calls `name`, and whether it is mapped: the name sent
    /// differs from the source's (decoded, or encoded), or the destination stores it otherwise
    /// (another normalisation). Compared as bytes.
    func name(for name: String) -> (name: String, mapped: Bool) {
        let sent = encoder.encode(sourceEncoder.decode(name))
        let mapped = !sent.utf8.elementsEqual(name.utf8) || !rules.stored(sent).utf8.elementsEqual(sent.utf8)
        return (sent, mapped)
    }

    /// The record of the mapping of the source's `sourceName` (at `relative`) to `sent`, the name
    /// ``name(for:)`` gave it, or the one a record or the destination's listing gave it; with why,
    /// and the name the destination stores (`existing`, its item's, where it has one).
    func mapping(
        _ relative: ItemPath, sourceName: String, sent: String, existing: String? = nil, destinationPath: ItemPath? = nil
    ) -> NameMapping {
        let original = sourceEncoder.decode(sourceName)
        let encoded = encoder.encode(original)
        let reason: NameMapping.Reason
        if !encoded.utf8.elementsEqual(original.utf8), sent.utf8.elementsEqual(encoded.utf8) {
            reason = .encoded
        } else if !original.utf8.elementsEqual(sourceName.utf8) {
            reason = .decoded
        } else {
            reason = .normalized
        }
        return NameMapping(
            relativePath: relative, sourceName: sourceName, destinationName: existing ?? rules.stored(sent), reason: reason,
            destinationPath: destinationPath)
    }

    /// The name the source would hold for the destination's `name` (the reverse of
    /// ``name(for:)``: decoded by the destination's rules, encoded for the source's where it
    /// refuses it, in the source's normalisation), byte for byte.
    func sourceImage(of name: String) -> NameKey {
        NameKey(exact: sourceRules.stored(sourceEncoder.encode(encoder.decode(name))))
    }

    /// The source's identity (`NameRules.key(_:)`, by its rules) of the name it would hold for the
    /// destination's `name`: two destination names with one such key are one name on the source.
    func sourceIdentity(of name: String) -> NameKey {
        sourceRules.key(sourceEncoder.encode(encoder.decode(name)))
    }

    /// The key of a source name as the source tells its names apart (``sourceIdentity(of:)``'s).
    func sourceIdentity(ofSourceName name: String) -> NameKey { sourceRules.key(name) }

    /// Whether the source stores names in one normalisation: then one of its names stands for
    /// every destination name with the same normalised form.
    var sourceNormalizes: Bool { sourceRules.normalization != .preserved }

    /// Whether the source holds two names as one (it normalises them, calls NFC and NFD one name,
    /// or ignores case): then a destination item it can only hold under a name it holds for
    /// another is not the source's to delete.
    var sourceFolds: Bool { sourceNormalizes || sourceRules.normalizationInsensitive || !sourceRules.caseSensitive }

    /// The key that tells two names on the destination apart: `NameRules.key(_:)`, compared by
    /// its bytes (never `String ==`, which makes the NFC and NFD spellings of a name one).
    func key(_ name: String) -> NameKey { rules.key(name) }
}
