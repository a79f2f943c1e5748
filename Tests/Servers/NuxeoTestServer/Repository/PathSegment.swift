import Foundation

/// Nuxeo's `PathSegmentServiceDefault` and `DuplicatedNameFixer` rules.
enum PathSegment {
    static let maxSize = 24

    /// Trim, truncate to 24 characters, replace `/` and `\` with `-`; a name made
    /// only of punctuation or blanks becomes a random numeric id.
    static func generate(_ raw: String) -> String {
        var s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.count > maxSize {
            s = String(s.prefix(maxSize)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        s = s.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "\\", with: "-")
        let meaningful = s.unicodeScalars.contains { CharacterSet.alphanumerics.contains($0) }
        if !meaningful {
            return String(DateCodec.nowMillis()) + String(UInt32.random(in: 0..<1_000_000))
        }
        return s
    }

    /// Appends `.<currentTimeMillis>` while `taken` reports a clash.
    static func deduplicate(_ name: String, taken: (String) -> Bool) -> String {
        guard taken(name) else { return name }
        var millis = DateCodec.nowMillis()
        while taken("\(name).\(millis)") { millis += 1 }
        return "\(name).\(millis)"
    }
}
