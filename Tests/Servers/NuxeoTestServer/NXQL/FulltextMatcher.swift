import Foundation

/// `ecm:fulltext = '…'`: every word must appear (case-insensitive) in the
/// title, description or text blob; `word*` is a prefix, `-word` must be absent.
struct FulltextMatcher {
    private let terms: [(word: String, prefix: Bool, negated: Bool)]

    init(_ query: String) {
        terms = Self.words(query, keepStars: true).map { raw in
            var word = raw
            let negated = word.hasPrefix("-")
            if negated { word.removeFirst() }
            let prefix = word.hasSuffix("*")
            if prefix { word.removeLast() }
            return (word, prefix, negated)
        }.filter { !$0.word.isEmpty && $0.word != "or" }
    }

    static func words(_ text: String, keepStars: Bool = false) -> [String] {
        text.lowercased().split { c in
            !(c.isLetter || c.isNumber || (keepStars && (c == "*" || c == "-")))
        }.map(String.init)
    }

    func matches(_ doc: StoredDocument, onlyTitle: Bool) -> Bool {
        var text = doc.displayTitle
        if !onlyTitle {
            text += " " + (doc.extra["dc:description"]?.stringValue ?? "")
            text += " " + (doc.blob?.textContent ?? "")
            text += " " + (doc.blob?.filename ?? "")
        }
        let words = Set(Self.words(text))
        guard !terms.isEmpty else { return false }
        return terms.allSatisfy { term in
            let found = term.prefix ? words.contains { $0.hasPrefix(term.word) } : words.contains(term.word)
            return found != term.negated
        }
    }
}
