import ProviderAPI

/// The XML declaration (`<?xml version="1.0" encoding="UTF-8"?>`), read as strictly as the
/// grammar says (XML 1.0 §2.8, §4.3.3): a malformed one is refused rather than guessed at, so
/// bytes in one encoding are never read as another.
enum XMLDeclaration {
    /// Encodings whose ASCII characters are single ASCII bytes; the reader reads them as UTF-8
    /// or, for the ISO-8859-1 names, converts them.
    static let acceptedEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1"]

    /// Whether `encoding` (an accepted, lowercased name) is ISO-8859-1.
    static func isLatin1(_ encoding: String) -> Bool { encoding.hasPrefix("iso") || encoding == "latin1" }

    /// The encoding the pseudo-attributes of a declaration (the bytes between `<?xml` and `?>`)
    /// name, lowercased, or `nil` when they name none; throws unless they are, in order,
    /// `version="1.x"`, an optional `encoding` and an optional `standalone`, each after white
    /// space, or when the encoding is not one of ``acceptedEncodings``.
    static func encoding<Bytes: Collection<UInt8>>(in declaration: Bytes) throws -> String? {
        let malformed = ProviderError(.invalidResponse, "malformed XML declaration")
        var rest = declaration[...]
        var values: [String: String] = [:]
        var order = ["version", "encoding", "standalone"][...]
        while true {
            var spaced = false
            while let byte = rest.first, isSpace(byte) {
                rest = rest.dropFirst()
                spaced = true
            }
            if rest.isEmpty { break }
            guard spaced else { throw malformed }
            let nameBytes = rest.prefix { $0 != UInt8(ascii: "=") && !isSpace($0) }
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard let index = order.firstIndex(of: name) else { throw malformed }
            order = order[(index + 1)...]
            rest = rest.dropFirst(nameBytes.count)
            while let byte = rest.first, isSpace(byte) { rest = rest.dropFirst() }
            guard rest.first == UInt8(ascii: "=") else { throw malformed }
            rest = rest.dropFirst()
            while let byte = rest.first, isSpace(byte) { rest = rest.dropFirst() }
            guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw malformed }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { throw malformed }
            let value = rest[..<close]
            guard value.allSatisfy({ $0 < 0x80 }) else { throw malformed }
            values[name] = String(decoding: value, as: UTF8.self)
            rest = rest[rest.index(after: close)...]
        }
        guard let version = values["version"], version.hasPrefix("1."), version.count > 2,
            version.utf8.dropFirst(2).allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { throw malformed }
        if let standalone = values["standalone"], standalone != "yes", standalone != "no" { throw malformed }
        guard let encoding = values["encoding"] else { return nil }
        guard let first = encoding.utf8.first, isLetter(first),
            encoding.utf8.allSatisfy({ isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { throw malformed }
        let name = encoding.lowercased()
        guard acceptedEncodings.contains(name) else {
            throw ProviderError(.invalidResponse, "XML in the \(name.prefix(40)) encoding is refused")
        }
        return name
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
