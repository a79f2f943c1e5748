import Foundation

/// Checks that apply to every XML document Strata reads.
public enum XMLSafety {
    /// Refuses documents that declare a DTD or entities, empty documents, documents that
    /// are not in UTF-8 (or plain ASCII or ISO-8859-1), UTF-8 documents with invalid bytes, and
    /// elements with more than ``maxAttributesPerElement`` attributes.
    ///
    /// The DTD check looks for `<!DOCTYPE` and `<!ENTITY` in the bytes, so it only holds when
    /// the document is in an ASCII-compatible encoding: in UTF-16, UTF-32, UTF-7 or EBCDIC a
    /// DTD would pass unseen, and the parser's own entity callbacks are not reported on every
    /// platform. Invalid UTF-8 in an element name crashes Foundation's `XMLParser` on Linux,
    /// so it never reaches the parser. (WebDAV, Pydio and Nuxeo servers all answer in UTF-8.)
    public static func check(_ data: Data) throws {
        guard !data.isEmpty else { throw ProviderError(.invalidResponse, "empty XML document") }
        let encoding = try declaredEncoding(data)
        if encoding == nil || encoding == "utf-8" || encoding == "utf8" {
            guard String(validating: data, as: UTF8.self) != nil else {
                throw ProviderError(.invalidResponse, "XML that is not valid UTF-8 is refused")
            }
        }
        // A DTD is the only way to declare entities; no WebDAV answer needs one.
        let markers: [[UInt8]] = [Array("<!DOCTYPE".utf8), Array("<!ENTITY".utf8), Array("<!doctype".utf8), Array("<!entity".utf8)]
        if data.withUnsafeBytes({ raw in markers.contains { contains(raw, $0) } }) {
            throw ProviderError(.invalidResponse, "XML with a document type declaration is refused")
        }
        try data.withUnsafeBytes { try checkAttributeCounts($0) }
    }

    /// The most attributes one element may have. Foundation's parser on Linux (libxml2 before
    /// 2.12) compares each attribute of an element with all those before it, so the work grows
    /// with the square of their number: 160,000 attributes in a 2 MB tag took 5 s of CPU.
    /// Real answers have a few dozen at most.
    public static let maxAttributesPerElement = 256

    /// Counts the attributes of every start tag (its `=` signs outside quoted values), skipping
    /// comments, CDATA sections and processing instructions; one pass over the bytes.
    private static func checkAttributeCounts(_ bytes: UnsafeRawBufferPointer) throws {
        let count = bytes.count
        var index = 0
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if startsWith(bytes, "<!--", at: index) {
                index = after(bytes, "-->", from: index + 4)
            } else if startsWith(bytes, "<![CDATA[", at: index) {
                index = after(bytes, "]]>", from: index + 9)
            } else if startsWith(bytes, "<?", at: index) {
                index = after(bytes, "?>", from: index + 2)
            } else if startsWith(bytes, "</", at: index) || startsWith(bytes, "<!", at: index) {
                index += 2
            } else {
                index += 1
                var quote: UInt8 = 0
                var attributes = 0
                while index < count {
                    let byte = bytes[index]
                    if quote != 0 {
                        if byte == quote { quote = 0 }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: "=") {
                        attributes += 1
                        if attributes > maxAttributesPerElement {
                            throw ProviderError(.invalidResponse, "XML element with more than \(maxAttributesPerElement) attributes")
                        }
                    } else if byte == UInt8(ascii: ">") {
                        break
                    }
                    index += 1
                }
            }
        }
    }

    private static func startsWith(_ bytes: UnsafeRawBufferPointer, _ prefix: StaticString, at index: Int) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard bytes.count - index >= length else { return false }
        for offset in 0..<length where bytes[index + offset] != prefix.utf8Start[offset] { return false }
        return true
    }

    /// The index just after the first `needle` at or after `from`, or the end of `bytes`.
    private static func after(_ bytes: UnsafeRawBufferPointer, _ needle: StaticString, from: Int) -> Int {
        let length = needle.utf8CodeUnitCount
        var index = from
        while index + length <= bytes.count {
            if startsWith(bytes, needle, at: index) { return index + length }
            index += 1
        }
        return bytes.count
    }

    /// Encodings whose ASCII characters are single ASCII bytes and that the parser reads without a converter.
    private static let acceptedEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1"]

    /// The encoding the XML declaration names, lowercased, or `nil`; throws unless the document
    /// is in an accepted encoding.
    private static func declaredEncoding(_ data: Data) throws -> String? {
        // UTF-16 and UTF-32 text (with or without a byte order mark) holds NUL bytes; XML never does.
        if data.contains(0) {
            throw ProviderError(.invalidResponse, "XML that is not in UTF-8 is refused")
        }
        // After an optional UTF-8 byte order mark and white space, a document starts with "<"
        // (an EBCDIC document does not).
        let bytes = data.prefix(512)
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.endIndex else { throw ProviderError(.invalidResponse, "empty XML document") }
        guard bytes[start] == UInt8(ascii: "<") else {
            throw ProviderError(.invalidResponse, "the answer is not an XML document")
        }
        let head = String(decoding: bytes[start...], as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
        let declaration = head[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { " =\t\r\n".contains($0) }
        guard let quote = rest.first, quote == "\"" || quote == "'" else {
            throw ProviderError(.invalidResponse, "malformed XML declaration")
        }
        let name = rest.dropFirst().prefix { $0 != quote }.lowercased()
        guard acceptedEncodings.contains(name) else {
            throw ProviderError(.invalidResponse, "XML in the \(name.prefix(40)) encoding is refused")
        }
        return name
    }

    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return true }
            }
            index += 1
        }
        return false
    }
}
