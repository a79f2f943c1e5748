import ProviderAPI

/// The destination's names for the source's: unchanged where the destination accepts them, else
/// mapped with `NameEncoder`; and the key under which the destination stores a name (after its
/// normalisation, folded when it ignores case), to match the two sides' listings.
struct DestinationNames: Sendable {
    let rules: NameRules
    let encoder: NameEncoder

    init(rules: NameRules) {
        self.rules = rules
        encoder = NameEncoder(rules: rules)
    }

    /// The name to give an item the source calls `name`, and whether it had to be mapped.
    func name(for name: String) -> (name: String, mapped: Bool) {
        if rules.accepts(name) { return (name, false) }
        return (encoder.encode(name), true)
    }

    /// The key that tells two names on the destination apart: `NameRules.key(_:)`, compared by
    /// its bytes (never `String ==`, which makes the NFC and NFD spellings of a name one).
    func key(_ name: String) -> NameKey { rules.key(name) }
}
