import Foundation

/// Checks that apply to every XML document Strata reads.
public enum XMLSafety {
    /// Refuses documents that declare a DTD or entities, empty documents, documents that
    /// are not in UTF-8 (or plain ASCII or ISO-8859-1), and UTF-8 documents with invalid bytes.
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
