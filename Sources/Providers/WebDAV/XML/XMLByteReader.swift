import Foundation
import HTTPProviderKit
import ProviderAPI

/// What an ``XMLByteReader`` reports: elements as they open and close, with namespaces
/// already resolved. The character data since the last tag is ``XMLByteReader/text``.
package protocol XMLByteReaderDelegate: AnyObject {
    /// An element opened (for `<a/>`, just before it closes).
    func didStart(_ name: DAVPropertyName, reader: XMLByteReader) throws
    /// An element closed; ``XMLByteReader/text`` holds the character data since the last tag.
    func didEnd(_ name: DAVPropertyName, reader: XMLByteReader) throws
}

/// A small, hardened, incremental XML reader for the UTF-8 answers WebDAV servers send.
///
/// Bytes are fed as they arrive from the network (``feed(_:)``) and every complete token is
/// reported at once, so a listing is parsed while its body streams. It knows exactly what a
/// multistatus needs: elements, attributes (read only for namespace declarations), character
/// data with the five predefined entities and character references, CDATA, comments and
/// processing instructions. It refuses, as ``ProviderError/Code/invalidResponse``:
/// any DTD (`<!DOCTYPE`, `<!ENTITY`: no entity is ever declared, expanded or fetched), any other
/// entity reference, bytes that are not UTF-8 (ISO-8859-1 and ASCII are read when the XML
/// declaration names them; other encodings are refused), control characters, NUL bytes,
/// unbound prefixes, mismatched or missing end tags, content outside the root, nesting deeper
/// than ``maxDepth``, character data longer than ``maxTextLength`` UTF-16 units, and any
/// markup (a tag with its attributes, a comment, a processing instruction, a CDATA section,
/// the XML declaration) longer than ``maxMarkupLength`` bytes.
///
/// Every construct is scanned once, however many pieces it arrives in: when a piece ends inside
/// one, the reader remembers where its search for the closing delimiter stopped (and, in a tag,
/// whether it was inside a quoted value) and resumes there with the next piece.
///
/// Foundation's `XMLParser` spent most of a 10,000-entry listing building `NSString`s and
/// trimming them; this reader works on bytes and makes a `String` only for names and for the
/// texts its delegate asks for.
package final class XMLByteReader {
    /// Deepest element nesting accepted.
    package let maxDepth: Int
    /// Longest character data between two tags, in UTF-16 units.
    package let maxTextLength: Int
    /// Longest markup construct, in bytes from its `<` to its `>`.
    package let maxMarkupLength: Int

    // The state below is read and written only by this reader's own methods, one call at a time
    // (the type is not `Sendable` and no method hands out a reference into it), so the dynamic
    // exclusivity checks of class properties (~6 % of a 10,000-entry listing) are left out.

    /// Held strongly (a weak load per event cost 3 % of a listing): delegates do not keep their reader.
    private let delegate: any XMLByteReaderDelegate
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var consumedBefore = 0

    private struct Open {
        var qualifiedName: [UInt8]
        var name: DAVPropertyName
        var namespaceCount: Int
    }
    @exclusivity(unchecked) private var stack: [Open] = []
    @exclusivity(unchecked) private var namespaces: [(prefix: [UInt8], uri: String)] = []
    /// Qualified names already checked and resolved, with the position of their colon: a
    /// multistatus repeats a dozen names thousands of times, and each is then found by its
    /// bytes instead of allocated, checked and resolved again. An entry is used only while its
    /// prefix is still bound to the same namespace (Apache declares its prefixes again on every
    /// `response`).
    @exclusivity(unchecked) private var resolved: [(qualified: [UInt8], colon: Int?, name: DAVPropertyName)] = []
    private static let maxResolved = 32
    /// Most namespace declarations in scope at once: every element name is looked up among them,
    /// so thousands declared on the root would make each later element cost thousands of comparisons.
    private static let maxNamespaces = 256

    @exclusivity(unchecked) private var textBytes: [UInt8] = []
    @exclusivity(unchecked) private var textUnits = 0

    /// How far the search for the end of the construct starting at `position` got, counted
    /// from `position` (0 before any search), so an unfinished construct is not scanned again
    /// from its start when the next piece arrives.
    @exclusivity(unchecked) private var scanOffset = 0
    /// The quote character a start tag's search stopped inside (0 when outside any value).
    @exclusivity(unchecked) private var scanQuote: UInt8 = 0
    /// Where the first markup starts, counted from the first byte fed: the XML declaration is read only there.
    private var documentStart = -1
    /// White space read outside the root element so far; bounded by ``maxTextLength`` like text.
    @exclusivity(unchecked) private var outsideSpace = 0

    private var bomChecked = false
    #if DEBUG
        /// The bytes examined by the searches for the end of markup and of text, in debug builds
        /// only: the tests check with it that a construct arriving in many pieces is scanned once.
        package private(set) var scannedBytes = 0
    #endif
    @exclusivity(unchecked) private var prologDone = false
    @exclusivity(unchecked) private var sawRoot = false
    @exclusivity(unchecked) private var rootClosed = false
    @exclusivity(unchecked) private var latin1 = false

    /// Creates a reader reporting to `delegate`.
    package init(delegate: any XMLByteReaderDelegate, maxDepth: Int, maxTextLength: Int, maxMarkupLength: Int = 1 << 20) {
        self.delegate = delegate
        self.maxDepth = maxDepth
        self.maxTextLength = maxTextLength
        self.maxMarkupLength = maxMarkupLength
    }

    /// The depth of the innermost open element (1 inside the root).
    package var depth: Int { stack.count }

    /// Whether the root element has been closed.
    package var isComplete: Bool { rootClosed }

    /// The character data since the last tag, without leading and trailing XML white space.
    package var text: String {
        let range = trimmedText
        if range.isEmpty { return "" }
        return textBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of ``text`` (the same trimmed character data), without
    /// making a `String`; the bytes are valid only during the call.
    package func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let range = trimmedText
        return try textBytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The status code of the HTTP status line in ``text`` (`HTTP/1.1 200 OK` → 200), read without making a `String`.
    package var textStatusCode: Int? {
        MultistatusParser.statusCode(textBytes[trimmedText])
    }

    /// Where ``text`` lies in the character data since the last tag: without leading and trailing XML white space.
    private var trimmedText: Range<Int> {
        var start = 0
        var end = textBytes.count
        while start < end, Self.isSpace(textBytes[start]) { start += 1 }
        while end > start, Self.isSpace(textBytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// Reads `bytes`, reporting every token they complete.
    ///
    /// Bytes stored contiguously (a network buffer, `Data`) are read where they are: only the
    /// bytes that finish the construct the previous piece left unfinished, and the unfinished
    /// construct at the end of this piece, are copied into the pending buffer.
    package func feed<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        if try bytes.withContiguousStorageIfAvailable({ try feedInPlace($0) }) != nil { return }
        compactPending()
        pending.append(contentsOf: bytes)
        try run(final: false)
    }

    private func compactPending() {
        if position > 0, position >= pending.count / 2 {
            consumedBefore += position
            pending.removeFirst(position)
            position = 0
        }
    }

    private func feedInPlace(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var offset = 0
        // The construct the last piece left unfinished, completed a delimiter at a time (every
        // construct ends at or after a `<` or `>`); each run resumes its search where it stopped.
        while position < pending.count, offset < bytes.count {
            var stop = offset
            while stop < bytes.count, bytes[stop] != UInt8(ascii: ">"), bytes[stop] != UInt8(ascii: "<") { stop += 1 }
            stop = min(stop + 1, bytes.count)
            compactPending()
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<stop]))
            offset = stop
            try run(final: false)
        }
        guard position == pending.count, offset < bytes.count else { return }
        // Everything pending is read: the rest of the piece is read in place, its first byte
        // counted right after the last one pending.
        consumedBefore += pending.count
        pending.removeAll(keepingCapacity: true)
        position = 0
        let rest = UnsafeBufferPointer(rebasing: bytes[offset...])
        do {
            try run(rest, final: false)
        } catch {
            // Leave the state as if the piece had been appended: `position` indexes `pending`.
            pending.append(contentsOf: rest)
            throw error
        }
        // The unfinished construct at the end waits in `pending` for the next piece.
        let kept = min(position, rest.count)
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: rest[kept...]))
        consumedBefore += kept
        position = 0
    }

    /// Ends the document: anything unfinished is an error.
    package func finish() throws {
        try run(final: true)
        guard sawRoot else { throw failure("the document has no root element") }
        guard rootClosed else { throw failure("the document ends before its root element is closed") }
    }

    // MARK: Tokens

    private func failure(_ message: String) -> ProviderError {
        ProviderError(.invalidResponse, "malformed XML at byte \(consumedBefore + position): \(message)")
    }

    private func run(final: Bool) throws {
        try pending.withUnsafeBufferPointer { try run($0, final: final) }
    }

    /// Reads the tokens in `buffer` from `position` on (`consumedBefore` counts the bytes before `buffer`).
    private func run(_ buffer: UnsafeBufferPointer<UInt8>, final: Bool) throws {
        let count = buffer.count
        if !prologDone {
            guard try readProlog(buffer, final: final) else { return }
        }
        while position < count {
            if buffer[position] == UInt8(ascii: "<") {
                guard try readMarkup(buffer, final: final) else { return }
            } else {
                guard try readText(buffer, final: final) else { return }
            }
        }
    }

    /// The byte order mark and the white space before the first markup. `false` until that markup's `<` arrived.
    private func readProlog(_ buffer: UnsafeBufferPointer<UInt8>, final: Bool) throws -> Bool {
        var index = position
        if !bomChecked {
            if buffer.count - index < 3, !final { return false }
            if buffer.count - index >= 3, buffer[index] == 0xEF, buffer[index + 1] == 0xBB, buffer[index + 2] == 0xBF { index += 3 }
            bomChecked = true
        }
        let spaceStart = index
        while index < buffer.count, Self.isSpace(buffer[index]) { index += 1 }
        try countOutsideSpace(index - spaceStart)
        position = index
        guard index < buffer.count else {
            if final { throw ProviderError(.invalidResponse, "empty XML document") }
            return false
        }
        guard buffer[index] == UInt8(ascii: "<") else {
            if buffer[index] == 0 || buffer[index] == 0xFF || buffer[index] == 0xFE {
                throw ProviderError(.invalidResponse, "XML that is not in UTF-8 is refused")
            }
            throw ProviderError(.invalidResponse, "the answer is not an XML document")
        }
        // The declaration, if any, is the markup starting here (see readMarkup).
        documentStart = consumedBefore + index
        prologDone = true
        return true
    }

    private static let acceptedEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso_8859-1", "latin1"]

    private func readEncoding(_ declaration: [UInt8]) throws {
        let text = String(decoding: declaration, as: UTF8.self)
        guard let key = text.range(of: "encoding") else { return }
        let rest = text[key.upperBound...].drop { " =\t\r\n".contains($0) }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { throw failure("malformed XML declaration") }
        let name = rest.dropFirst().prefix { $0 != quote }.lowercased()
        guard Self.acceptedEncodings.contains(name) else {
            throw ProviderError(.invalidResponse, "XML in the \(name.prefix(40)) encoding is refused")
        }
        latin1 = name.hasPrefix("iso") || name == "latin1"
    }

    /// The kinds of markup, as limit errors name them.
    private enum Construct: String {
        case startTag = "start tag"
        case endTag = "end tag"
        case attributeValue = "attribute value"
        case comment
        case processingInstruction = "processing instruction"
        case declaration
        case cdata = "CDATA section"
        case markup
    }

    private func tooLong(_ construct: Construct) -> ProviderError {
        ProviderError(.invalidResponse, "XML \(construct.rawValue) longer than \(maxMarkupLength) bytes")
    }

    /// The construct at `position` is not complete in `buffer`: an error when the document ends
    /// here or the construct is already too long, otherwise `false` after remembering where the
    /// search for its end resumes (`resume`, and the open `quote` of a start tag).
    private func unfinished(
        _ buffer: UnsafeBufferPointer<UInt8>, final: Bool, _ message: String, _ construct: Construct, resume: Int, quote: UInt8 = 0
    ) throws -> Bool {
        if buffer.count - position > maxMarkupLength { throw tooLong(construct) }
        if final { throw failure(message) }
        scanOffset = resume - position
        scanQuote = quote
        return false
    }

    @inline(__always) private func noteScan(from: Int, to: Int) {
        #if DEBUG
            scannedBytes += to - from
        #endif
    }

    /// Whether the processing instruction at `start` is the XML declaration.
    private func isDeclaration(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        consumedBefore + start == documentStart && Self.hasPrefix(buffer, "<?xml", at: start)
    }

    /// A tag, comment, CDATA section or processing instruction starting at `position`; the
    /// search for its end starts where the previous one stopped.
    private func readMarkup(_ buffer: UnsafeBufferPointer<UInt8>, final: Bool) throws -> Bool {
        let start = position
        let count = buffer.count
        guard start + 1 < count else { return try unfinished(buffer, final: final, "the document ends inside a tag", .markup, resume: start) }
        let resume = start + scanOffset
        let next: Int
        switch buffer[start + 1] {
        case UInt8(ascii: "?"):
            let from = max(start + 2, resume)
            let found = Self.find(buffer, "?>", from: from)
            noteScan(from: from, to: found ?? count)
            guard let end = found else {
                let construct: Construct = isDeclaration(buffer, at: start) ? .declaration : .processingInstruction
                return try unfinished(
                    buffer, final: final, "unterminated \(construct == .declaration ? "XML declaration" : "processing instruction")", construct,
                    resume: max(start + 2, count - 1))
            }
            next = end + 2
            let declaration = isDeclaration(buffer, at: start)
            if next - start > maxMarkupLength { throw tooLong(declaration ? .declaration : .processingInstruction) }
            try checkCharacters(buffer[start..<end])
            if declaration { try readEncoding(Array(buffer[start..<end])) }
        case UInt8(ascii: "!"):
            if Self.hasPrefix(buffer, "<!--", at: start) {
                let from = max(start + 4, resume)
                let found = Self.find(buffer, "-->", from: from)
                noteScan(from: from, to: found ?? count)
                guard let end = found else {
                    return try unfinished(buffer, final: final, "unterminated comment", .comment, resume: max(start + 4, count - 2))
                }
                next = end + 3
                if next - start > maxMarkupLength { throw tooLong(.comment) }
                try checkCharacters(buffer[start..<end])
            } else if Self.hasPrefix(buffer, "<![CDATA[", at: start) {
                guard !stack.isEmpty else { throw failure("CDATA outside the root element") }
                let from = max(start + 9, resume)
                let found = Self.find(buffer, "]]>", from: from)
                noteScan(from: from, to: found ?? count)
                guard let end = found else {
                    return try unfinished(buffer, final: final, "unterminated CDATA section", .cdata, resume: max(start + 9, count - 2))
                }
                next = end + 3
                if next - start > maxMarkupLength { throw tooLong(.cdata) }
                try checkCharacters(buffer[(start + 9)..<end])
                try appendText(buffer[(start + 9)..<end])
            } else if count - start < 9, Self.couldBecome(buffer, start, ["<!--", "<![CDATA["]) {
                return try unfinished(buffer, final: final, "the document ends inside markup", .markup, resume: start)
            } else {
                throw ProviderError(.invalidResponse, "XML with a document type declaration is refused")
            }
        case UInt8(ascii: "/"):
            let from = max(start + 2, resume)
            let found = Self.find(buffer, ">", from: from)
            noteScan(from: from, to: found ?? count)
            guard let end = found else {
                return try unfinished(buffer, final: final, "the document ends inside an end tag", .endTag, resume: count)
            }
            next = end + 1
            if next - start > maxMarkupLength { throw tooLong(.endTag) }
            try endTag(buffer, from: start + 2, to: end)
        default:
            var quote = scanQuote
            let from = max(start + 1, resume)
            let found = Self.tagEnd(buffer, from: from, quote: &quote)
            noteScan(from: from, to: found ?? count)
            guard let end = found else {
                return try unfinished(
                    buffer, final: final, "the document ends inside a start tag", quote == 0 ? .startTag : .attributeValue, resume: count,
                    quote: quote)
            }
            next = end + 1
            if next - start > maxMarkupLength { throw tooLong(.startTag) }
            try startTag(buffer, from: start + 1, to: end)
        }
        position = next
        scanOffset = 0
        scanQuote = 0
        return true
    }

    /// Character data up to the next `<`; with more bytes to come, stops before an
    /// unfinished entity or UTF-8 sequence.
    private func readText(_ buffer: UnsafeBufferPointer<UInt8>, final: Bool) throws -> Bool {
        let start = position
        var end = start
        while end < buffer.count, buffer[end] != UInt8(ascii: "<") { end += 1 }
        noteScan(from: start, to: end)
        if end == buffer.count, !final {
            // Keep a possibly unfinished entity or multi-byte character for the next feed.
            var safe = end
            var back = end
            while back > start, end - back < 12 {
                back -= 1
                if buffer[back] == UInt8(ascii: "&") { safe = back; break }
                if buffer[back] == UInt8(ascii: ";") { break }
            }
            // An unfinished UTF-8 sequence at the end waits for its last bytes.
            var lead = safe
            while lead > start, safe - lead < 3, buffer[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
            if lead > start, buffer[lead - 1] >= 0xC0 {
                lead -= 1
                let length = buffer[lead] >= 0xF0 ? 4 : buffer[lead] >= 0xE0 ? 3 : 2
                if safe - lead < length { safe = lead }
            }
            end = safe
            if end == start { return false }
        }
        let run = buffer[start..<end]
        if stack.isEmpty {
            guard run.allSatisfy(Self.isSpace) else {
                throw failure(sawRoot ? "content after the root element" : "text before the root element")
            }
            try countOutsideSpace(run.count)
        } else {
            try checkCharacters(run)
            try appendDecoded(run)
        }
        position = end
        return true
    }

    /// Counts white space outside the root element, which is bounded like text.
    private func countOutsideSpace(_ count: Int) throws {
        outsideSpace += count
        if outsideSpace > maxTextLength {
            throw ProviderError(.invalidResponse, "XML white space outside the root element longer than \(maxTextLength)")
        }
    }

    // MARK: Elements

    private func startTag(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) throws {
        var last = to
        let selfClosing = last > from && buffer[last - 1] == UInt8(ascii: "/")
        if selfClosing { last -= 1 }
        try checkCharacters(buffer[from..<last])
        var index = from
        while index < last, !Self.isSpace(buffer[index]), buffer[index] != UInt8(ascii: "/") { index += 1 }
        let known = knownName(buffer, from: from, to: index)
        var qualified = known.map { resolved[$0].qualified } ?? Array(buffer[from..<index])
        if known == nil {
            guard Self.isName(qualified) else { throw failure("a start tag without a valid name") }
        }
        if rootClosed { throw failure("content after the root element") }
        if stack.count >= maxDepth { throw ProviderError(.invalidResponse, "XML nested deeper than \(maxDepth) levels") }
        // Attributes: only namespace declarations matter, but each must be well formed.
        var declared = 0
        while index < last {
            while index < last, Self.isSpace(buffer[index]) { index += 1 }
            if index == last { break }
            let nameStart = index
            while index < last, buffer[index] != UInt8(ascii: "="), !Self.isSpace(buffer[index]) { index += 1 }
            let attribute = Array(buffer[nameStart..<index])
            guard Self.isName(attribute) else { throw failure("a malformed attribute") }
            while index < last, Self.isSpace(buffer[index]) { index += 1 }
            guard index < last, buffer[index] == UInt8(ascii: "=") else { throw failure("an attribute without a value") }
            index += 1
            while index < last, Self.isSpace(buffer[index]) { index += 1 }
            guard index < last, buffer[index] == UInt8(ascii: "\"") || buffer[index] == UInt8(ascii: "'") else {
                throw failure("an attribute value without quotes")
            }
            let quote = buffer[index]
            index += 1
            let valueStart = index
            while index < last, buffer[index] != quote {
                if buffer[index] == UInt8(ascii: "<") { throw failure("'<' in an attribute value") }
                index += 1
            }
            guard index < last else { throw failure("an unterminated attribute value") }
            let value = buffer[valueStart..<index]
            index += 1
            if attribute == Self.xmlns {
                if namespaces.count >= Self.maxNamespaces { throw tooManyNamespaces() }
                namespaces.append(([], try decodeAttribute(value)))
                declared += 1
            } else if attribute.count > 6, attribute.starts(with: Self.xmlnsColon) {
                let uri = try decodeAttribute(value)
                guard !uri.isEmpty else { throw failure("an empty namespace for a prefix") }
                if namespaces.count >= Self.maxNamespaces { throw tooManyNamespaces() }
                namespaces.append((Array(attribute[6...]), uri))
                declared += 1
            } else {
                _ = try decodeAttribute(value)
            }
            if index < last, !Self.isSpace(buffer[index]) { throw failure("attributes without white space between them") }
        }
        let name: DAVPropertyName
        if let entry = known.map({ resolved[$0] }), boundNamespace(entry.qualified, colon: entry.colon) == entry.name.namespace {
            name = entry.name
            qualified = entry.qualified
        } else {
            name = try resolve(qualified)
            let remembered = (qualified, qualified.firstIndex(of: UInt8(ascii: ":")), name)
            if let known {
                resolved[known] = remembered
            } else if resolved.count < Self.maxResolved {
                resolved.append(remembered)
            }
        }
        stack.append(Open(qualifiedName: qualified, name: name, namespaceCount: declared))
        sawRoot = true
        clearText()
        try delegate.didStart(name, reader: self)
        if selfClosing { try closeTop() }
    }

    private func tooManyNamespaces() -> ProviderError {
        ProviderError(.invalidResponse, "XML with more than \(Self.maxNamespaces) namespace declarations in scope")
    }

    private func endTag(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) throws {
        var last = to
        while last > from, Self.isSpace(buffer[last - 1]) { last -= 1 }
        guard let top = stack.last else { throw failure("an end tag without a start tag") }
        guard top.qualifiedName.elementsEqual(buffer[from..<last]) else {
            throw failure("an end tag that does not match its start tag")
        }
        try closeTop()
    }

    private func closeTop() throws {
        guard let top = stack.last else { return }
        try delegate.didEnd(top.name, reader: self)
        stack.removeLast()
        namespaces.removeLast(top.namespaceCount)
        clearText()
        if stack.isEmpty { rootClosed = true }
    }

    /// The index in ``resolved`` of the name in `buffer[from..<to]`, if it was checked and resolved before.
    private func knownName(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        let length = to - from
        guard length > 0, let base = buffer.baseAddress else { return nil }
        for (index, entry) in resolved.enumerated() where entry.qualified.count == length {
            let same = entry.qualified.withUnsafeBufferPointer { known in
                known.baseAddress.map { memcmp($0, base + from, length) == 0 } ?? false
            }
            if same { return index }
        }
        return nil
    }

    /// The namespace the prefix of `qualified` (before `colon`; the default one without) is bound to now.
    private func boundNamespace(_ qualified: [UInt8], colon: Int?) -> String? {
        let prefix = colon.map { qualified[..<$0] } ?? []
        if colon != nil, prefix.elementsEqual(Self.xmlPrefix) { return Self.xmlNamespace }
        for binding in namespaces.reversed() where binding.prefix.elementsEqual(prefix) { return binding.uri }
        return colon == nil ? "" : nil
    }

    private func resolve(_ qualified: [UInt8]) throws -> DAVPropertyName {
        let colon = qualified.firstIndex(of: UInt8(ascii: ":"))
        let prefix = colon.map { Array(qualified[..<$0]) } ?? []
        let local = colon.map { qualified[($0 + 1)...] } ?? qualified[...]
        guard !local.isEmpty, !local.contains(UInt8(ascii: ":")) else { throw failure("a malformed qualified name") }
        let localName = String(decoding: local, as: UTF8.self)
        if prefix == Self.xmlPrefix { return DAVPropertyName(Self.xmlNamespace, localName) }
        for binding in namespaces.reversed() where binding.prefix == prefix {
            return DAVPropertyName(binding.uri, localName)
        }
        if prefix.isEmpty { return DAVPropertyName("", localName) }
        throw failure("the prefix \(String(decoding: prefix.prefix(40), as: UTF8.self)) is not bound to a namespace")
    }

    // MARK: Text

    private func clearText() {
        textBytes.removeAll(keepingCapacity: true)
        textUnits = 0
    }

    /// Appends raw (already checked) character data, converting ISO-8859-1 when declared.
    private func appendText(_ run: Slice<UnsafeBufferPointer<UInt8>>) throws {
        if latin1 {
            for byte in run {
                if byte < 0x80 {
                    textBytes.append(byte)
                } else {
                    textBytes.append(0xC0 | (byte >> 6))
                    textBytes.append(0x80 | (byte & 0x3F))
                }
            }
            textUnits += run.count
        } else {
            textBytes.append(contentsOf: run)
            textUnits += Self.utf16Count(run)
        }
        if textUnits > maxTextLength { throw ProviderError(.invalidResponse, "XML element text longer than \(maxTextLength)") }
    }

    /// Appends character data, decoding entity and character references.
    private func appendDecoded(_ run: Slice<UnsafeBufferPointer<UInt8>>) throws {
        var index = run.startIndex
        var plain = index
        while index < run.endIndex {
            guard run[index] == UInt8(ascii: "&") else {
                index += 1
                continue
            }
            if plain < index { try appendText(run[plain..<index]) }
            guard let semicolon = run[index..<min(run.endIndex, index + 12)].firstIndex(of: UInt8(ascii: ";")) else {
                throw failure("an unterminated entity reference")
            }
            guard let scalar = Self.entity(run[(index + 1)..<semicolon]) else { throw failure("an undeclared entity reference") }
            UTF8.encode(scalar) { textBytes.append($0) }
            textUnits += scalar.value > 0xFFFF ? 2 : 1
            if textUnits > maxTextLength { throw ProviderError(.invalidResponse, "XML element text longer than \(maxTextLength)") }
            index = semicolon + 1
            plain = index
        }
        if plain < run.endIndex { try appendText(run[plain..<run.endIndex]) }
    }

    private func decodeAttribute(_ value: Slice<UnsafeBufferPointer<UInt8>>) throws -> String {
        guard value.contains(UInt8(ascii: "&")) else { return String(decoding: value, as: UTF8.self) }
        var result = ""
        var index = value.startIndex
        var plain = index
        while index < value.endIndex {
            guard value[index] == UInt8(ascii: "&") else {
                index += 1
                continue
            }
            result += String(decoding: value[plain..<index], as: UTF8.self)
            guard let semicolon = value[index..<min(value.endIndex, index + 12)].firstIndex(of: UInt8(ascii: ";")),
                let scalar = Self.entity(value[(index + 1)..<semicolon])
            else { throw failure("a bad entity reference in an attribute") }
            result.unicodeScalars.append(scalar)
            index = semicolon + 1
            plain = index
        }
        return result + String(decoding: value[plain..<value.endIndex], as: UTF8.self)
    }

    /// A predefined entity or a character reference (`lt`, `#38`, `#x26`); `nil` for anything else.
    private static func entity(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "apos": return "'"
        case "quot": return "\""
        case let reference where reference.hasPrefix("#"):
            let digits = reference.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, isXMLCharacter(value), !digits.hasPrefix("x+"), !digits.hasPrefix("+") else { return nil }
            return Unicode.Scalar(value)
        default: return nil
        }
    }

    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    // MARK: Byte checks

    /// Refuses control characters and, unless the document is ISO-8859-1, bytes that are not UTF-8.
    private func checkCharacters(_ run: Slice<UnsafeBufferPointer<UInt8>>) throws {
        var index = run.startIndex
        let end = run.endIndex
        while index < end {
            let byte = run[index]
            if byte >= 0x20, byte < 0x80 {
                index += 1
                continue
            }
            if byte < 0x20 {
                guard byte == 0x09 || byte == 0x0A || byte == 0x0D else {
                    if byte == 0 { throw ProviderError(.invalidResponse, "XML that is not in UTF-8 is refused") }
                    throw failure("a control character")
                }
                index += 1
                continue
            }
            if latin1 {
                index += 1
                continue
            }
            guard case .valid(let next) = UTF8Validation.sequence(in: run.base, at: index, end: run.endIndex) else {
                throw ProviderError(.invalidResponse, "XML that is not valid UTF-8 is refused")
            }
            index = next
        }
    }

    /// UTF-16 units in valid UTF-8: one per lead byte, two for a four-byte sequence.
    private static func utf16Count(_ run: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var units = 0
        for byte in run where byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
        return units
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// A plausible XML name: not empty, no markup or quote characters, not starting with a digit, `-` or `.`.
    private static func isName(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, !(0x30...0x39).contains(first), first != UInt8(ascii: "-"), first != UInt8(ascii: ".") else {
            return false
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"),
                UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?"), 0x20, 0x09, 0x0A, 0x0D:
                return false
            default: continue
            }
        }
        return true
    }

    private static let xmlns: [UInt8] = Array("xmlns".utf8)
    private static let xmlnsColon: [UInt8] = Array("xmlns:".utf8)
    private static let xmlPrefix: [UInt8] = Array("xml".utf8)
    private static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The `>` that ends a start tag, skipping quoted attribute values; the search starts inside
    /// the value opened by `quote` (0: outside any), and leaves there the quote open at the end
    /// of `buffer` when it finds no `>`.
    private static func tagEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, quote: inout UInt8) -> Int? {
        var open = quote
        var index = from
        while index < buffer.count {
            let byte = buffer[index]
            if open != 0 {
                if byte == open { open = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                open = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        quote = open
        return nil
    }

    private static func find(_ buffer: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        let bytes = needle.utf8Start
        guard count > 0, buffer.count >= count else { return nil }
        var index = from
        let last = buffer.count - count
        while index <= last {
            if buffer[index] == bytes[0] {
                var offset = 1
                while offset < count, buffer[index + offset] == bytes[offset] { offset += 1 }
                if offset == count { return index }
            }
            index += 1
        }
        return nil
    }

    private static func hasPrefix(_ buffer: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard buffer.count - index >= count else { return false }
        for offset in 0..<count where buffer[index + offset] != prefix.utf8Start[offset] { return false }
        return true
    }

    /// Whether the bytes from `index` to the end could still grow into one of `prefixes`.
    private static func couldBecome(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int, _ prefixes: [StaticString]) -> Bool {
        prefixes.contains { prefix in
            let count = min(prefix.utf8CodeUnitCount, buffer.count - index)
            return (0..<count).allSatisfy { buffer[index + $0] == prefix.utf8Start[$0] }
        }
    }
}
