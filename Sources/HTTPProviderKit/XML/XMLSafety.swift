import Foundation
import ProviderAPI

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
        // Foundation's XMLParser on Linux reads a processing instruction's data with strlen, and
        // libxml2 hands it no data at all for `<?target?>`: that crashes the process.
        if data.withUnsafeBytes({ hasProcessingInstructionWithoutData($0) }) {
            throw ProviderError(.invalidResponse, "XML with an empty processing instruction is refused")
        }
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

    /// Whether `bytes` hold `<?target?>` (a target directly followed by `?>`) anywhere.
    private static func hasProcessingInstructionWithoutData(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") {
                var end = index + 2
                while end < bytes.count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "<"),
                    bytes[end] != UInt8(ascii: ">")
                {
                    end += 1
                }
                if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") { return true }
            }
            index += 1
        }
        return false
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
        let head = bytes[start...]
        // `<?xml-stylesheet …?>` is a processing instruction, not a declaration: no encoding.
        guard head.starts(with: Array("<?xml".utf8)), head.dropFirst(5).first.map({ isSpace($0) || $0 == UInt8(ascii: "?") }) == true,
            let end = firstRange(of: Array("?>".utf8), in: head)
        else { return nil }
        // Read as strictly as the grammar says: the parser ignores the encoding of a malformed
        // declaration, and trusting it here would let bytes that are not UTF-8 reach the parser.
        guard let name = try encoding(inDeclaration: head[(head.startIndex + 5)..<end]) else { return nil }
        guard acceptedEncodings.contains(name) else {
            throw ProviderError(.invalidResponse, "XML in the \(name.prefix(40)) encoding is refused")
        }
        return name
    }

    /// The encoding the pseudo-attributes of an XML declaration (what lies between `<?xml` and
    /// `?>`) name, lowercased, or `nil`; throws unless they are, in order, `version="1.x"`, an
    /// optional `encoding`, and an optional `standalone`, each after white space (XML 1.0 §2.8).
    private static func encoding(inDeclaration declaration: Data.SubSequence) throws -> String? {
        let malformed = ProviderError(.invalidResponse, "malformed XML declaration")
        var rest = declaration
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
            let name = String(decoding: rest.prefix { $0 != UInt8(ascii: "=") && !isSpace($0) }, as: UTF8.self)
            guard let index = order.firstIndex(of: name) else { throw malformed }
            order = order[(index + 1)...]
            rest = rest.dropFirst(name.utf8.count)
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
            rest = rest[(close + 1)...]
        }
        guard let version = values["version"], version.hasPrefix("1."), version.count > 2,
            version.dropFirst(2).allSatisfy(\.isASCII), version.dropFirst(2).allSatisfy(\.isNumber)
        else { throw malformed }
        if let standalone = values["standalone"], standalone != "yes", standalone != "no" { throw malformed }
        guard let encoding = values["encoding"] else { return nil }
        guard let first = encoding.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            encoding.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) })
        else { throw malformed }
        return encoding.lowercased()
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Where `needle` first starts in `haystack`.
    private static func firstRange(of needle: [UInt8], in haystack: Data.SubSequence) -> Data.Index? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index <= haystack.endIndex - needle.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
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
