import Testing
@testable import HTTPProviderKit

/// `HTTPHeaderValue.listContains`: the comma-separated list reading behind `Accept-Ranges`,
/// against the rule it replaces (split on commas, trim spaces and tabs, compare lowercased).
@Suite struct HTTPHeaderValueTests {
    /// The reading it replaced, with Foundation-free trimming of spaces and tabs.
    private func reference(_ value: String, _ token: String) -> Bool {
        value.split(separator: ",", omittingEmptySubsequences: false).contains { element in
            var part = Substring(element)
            while let first = part.first, first == " " || first == "\t" { part = part.dropFirst() }
            while let last = part.last, last == " " || last == "\t" { part = part.dropLast() }
            return part.lowercased() == token.lowercased()
        }
    }

    @Test(arguments: [
        ("bytes", true), ("Bytes", true), ("BYTES", true), (" bytes ", true), ("\tbytes\t", true),
        ("none", false), ("none, bytes", true), ("bytes,none", true), ("none,,bytes", true),
        ("none, bytes2", false), ("bytesx", false), ("xbytes", false), ("byte", false), ("b ytes", false),
        ("", false), (",", false), (" , ", false), ("none,", false), (",bytes", true), ("bytes,", true),
        ("bytés", false), ("é, bytes", true), ("bytes;q=1", false),
    ])
    func readsCommaSeparatedTokens(value: String, expected: Bool) {
        #expect(HTTPHeaderValue.listContains(value, token: "bytes") == expected)
        #expect(reference(value, "bytes") == expected)
    }

    @Test func agreesWithTheSplitReadingOnEveryShortValue() {
        // Every value of up to 4 characters over an alphabet that has the token's letters, their
        // capitals, commas, spaces and tabs, against the token "ab".
        let alphabet: [Character] = ["a", "b", "A", "B", ",", " ", "\t", "c"]
        var values = [""]
        var checked = 0
        for _ in 0..<4 {
            values = values.flatMap { value in alphabet.map { value + String($0) } }
            for value in values {
                #expect(HTTPHeaderValue.listContains(value, token: "ab") == reference(value, "ab"), "\(value.debugDescription)")
                checked += 1
            }
        }
        #expect(checked == 8 + 64 + 512 + 4096)
    }
}
