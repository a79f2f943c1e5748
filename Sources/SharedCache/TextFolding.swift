import Foundation

/// Folding of names for the full-text index: case- and diacritic-insensitive,
/// as ``ProviderAPI/Query/matches(_:)`` compares names.
enum TextFolding {
    /// The folded form of `text`.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
