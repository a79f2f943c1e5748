import Foundation
import ProviderAPI

/// The one XML reader of Strata: small, hardened and incremental, for the UTF-8 answers servers
/// send (WebDAV multistatus and error bodies, Pydio's documents, OCS envelopes).
///
/// Bytes are fed as they arrive from the network (``feed(_:)``) and every complete token is
/// reported at once, so a listing is parsed while its body streams. It reads elements,
/// attributes (reported to the delegate when asked, ``attributes``; namespace declarations are
/// always read), character data with the five predefined entities and character references,
/// CDATA, comments and processing instructions, with line ends and attribute values normalised
/// as XML 1.0 says (§2.11, §3.3.3). It refuses, as `ProviderError.Code.invalidResponse`:
/// any DTD (`<!DOCTYPE`, `<!ENTITY`: no entity is ever declared, expanded or fetched), any other
/// entity reference, a malformed XML declaration, bytes that are not UTF-8 (ISO-8859-1 and ASCII
/// are read when the XML declaration names them; other encodings are refused), control
/// characters, NUL bytes, unbound prefixes, mismatched or missing end tags, content outside the
/// root, a reported element with more than ``maxAttributes`` attributes or one named twice,
/// nesting deeper than ``maxDepth``, character data longer than ``maxTextLength`` UTF-16 units,
/// and any markup (a tag with its attributes, a comment, a processing instruction, a CDATA
/// section, the XML declaration) longer than ``maxMarkupLength`` bytes.
///
/// Every construct is scanned once, however many pieces it arrives in: when a piece ends inside
/// one, the reader remembers where its search for the closing delimiter stopped (and, in a tag,
/// whether it was inside a quoted value) and resumes there with the next piece.
///
/// It replaced Foundation's `XMLParser` (libxml2), which spent most of a 10,000-entry listing
/// building `NSString`s, crashed on some hostile documents on Linux and needed a guard in front
/// of it: this reader works on bytes and makes a `String` only for names and for the texts its
/// delegate asks for.
package final class XMLByteReader {
    /// Deepest element nesting accepted.
    package let maxDepth: Int
    /// Longest character data between two tags, in UTF-16 units.
    package let maxTextLength: Int
    /// Longest markup construct, in bytes from its `<` to its `>`.
    package let maxMarkupLength: Int
    /// Whether the attributes of each element are read into ``attributes`` for the delegate.
    package let reportsAttributes: Bool
    /// Most attributes of one element, when they are reported (``reportsAttributes``). Real
    /// answers have a few dozen at most (a Pydio node about twenty).
    package static let maxAttributes = 256

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
        var name: XMLName
        var namespaceCount: Int
    }
    @exclusivity(unchecked) private var stack: [Open] = []
    @exclusivity(unchecked) private var namespaces: [(prefix: [UInt8], uri: String)] = []
    /// Qualified names already checked and resolved, with the position of their colon: a
    /// multistatus repeats a dozen names thousands of times, and each is then found by its
    /// bytes instead of allocated, checked and resolved again. An entry is used only while its
    /// prefix is still bound to the same namespace (Apache declares its prefixes again on every
    /// `response`).
    @exclusivity(unchecked) private var resolved: [(qualified: [UInt8], colon: Int?, name: XMLName)] = []
    private static let maxResolved = 32
    /// Most namespace declarations in scope at once: every element name is looked up among them,
    /// so thousands declared on the root would make each later element cost thousands of comparisons.
    private static let maxNamespaces = 256

    @exclusivity(unchecked) private var textBytes: [UInt8] = []
    @exclusivity(unchecked) private var textUnits = 0
    /// Whether the last byte of character data read was a carriage return (stored as a line
    /// feed): a line feed right after it is the same line end (XML 1.0 §2.11), even in the next piece.
    @exclusivity(unchecked) private var afterCarriageReturn = false
    /// Whether the run of character data being stored holds a carriage return (``checkCharacters(_:)`` found one).
    @exclusivity(unchecked) private var runHasCarriageReturn = false
    @exclusivity(unchecked) private var attributeList: [(name: String, value: String)] = []

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

    /// Creates a reader reporting to `delegate`; with `reportsAttributes`, the attributes of each
    /// element are read for it (``attributes``), otherwise only namespace declarations are kept.
    package init(
        delegate: any XMLByteReaderDelegate, maxDepth: Int, maxTextLength: Int, maxMarkupLength: Int = 1 << 20,
        reportsAttributes: Bool = false
    ) {
        self.delegate = delegate
        self.maxDepth = maxDepth
        self.maxTextLength = maxTextLength
        self.maxMarkupLength = maxMarkupLength
        self.reportsAttributes = reportsAttributes
    }

    /// The depth of the innermost open element (1 inside the root).
    package var depth: Int { stack.count }

    /// Whether the root element has been closed.
    package var isComplete: Bool { rootClosed }

    /// The attributes of the element just started, by qualified name (namespace declarations
    /// included, as `xmlns` and `xmlns:prefix`), values decoded and normalised, in document
    /// order; read in ``XMLByteReaderDelegate/didStart(_:reader:)``. Empty unless the reader
    /// ``reportsAttributes``.
    package var attributes: [(name: String, value: String)] { attributeList }

    /// The name of the innermost open element as written, prefix and all (`d:getetag`).
    package var qualifiedName: String {
        guard let top = stack.last else { return "" }
        return decodeName(top.qualifiedName[...])
    }

    /// The character data since the last tag, as it is: white space kept.
    package var rawText: String { String(decoding: textBytes, as: UTF8.self) }

    /// The length of ``rawText`` in UTF-16 units, counted as it was read.
    package var rawTextLength: Int { textUnits }

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

    /// Reads the XML declaration `buffer[start..<end]` (from its `<?xml` to its `?>`).
    private func readDeclaration(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) throws {
        guard let encoding = try XMLDeclaration.encoding(in: buffer[(start + 5)..<end]) else { return }
        latin1 = XMLDeclaration.isLatin1(encoding)
    }

    /// Checks the target of the processing instruction `buffer[start..<end]` (from its `<?` to
    /// its `?>`): a name, followed by white space or the end, and not `xml` in any case (the
    /// declaration is only allowed first).
    private func checkProcessingInstruction(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) throws {
        var index = start + 2
        while index < end, !Self.isSpace(buffer[index]) { index += 1 }
        let target = Array(buffer[(start + 2)..<index])
        guard Self.isName(target) else { throw failure("a processing instruction without a valid target") }
        if target.count == 3, target.map({ $0 | 0x20 }) == Self.xmlPrefix {
            throw failure("an XML declaration that is not at the start of the document")
        }
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

    /// Whether the processing instruction at `start` is the XML declaration: `<?xml` followed by
    /// white space or `?`, first in the document.
    private func isDeclaration(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard consumedBefore + start == documentStart, Self.hasPrefix(buffer, "<?xml", at: start) else { return false }
        guard start + 5 < buffer.count else { return true }
        return Self.isSpace(buffer[start + 5]) || buffer[start + 5] == UInt8(ascii: "?")
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
            _ = try checkCharacters(buffer[start..<end])
            if declaration {
                try readDeclaration(buffer, from: start, to: end)
            } else {
                try checkProcessingInstruction(buffer, from: start, to: end)
            }
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
                _ = try checkCharacters(buffer[start..<end])
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
                afterCarriageReturn = false
                runHasCarriageReturn = try checkCharacters(buffer[(start + 9)..<end])
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
        // A line feed after markup does not end the line a carriage return before it ended.
        afterCarriageReturn = false
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
            runHasCarriageReturn = try checkCharacters(run)
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
        _ = try checkCharacters(buffer[from..<last])
        if reportsAttributes { attributeList.removeAll(keepingCapacity: true) }
        var index = from
        while index < last, !Self.isSpace(buffer[index]), buffer[index] != UInt8(ascii: "/") { index += 1 }
        let known = knownName(buffer, from: from, to: index)
        var qualified = known.map { resolved[$0].qualified } ?? Array(buffer[from..<index])
        if known == nil {
            guard Self.isName(qualified) else { throw failure("a start tag without a valid name") }
        }
        if rootClosed { throw failure("content after the root element") }
        if stack.count >= maxDepth { throw ProviderError(.invalidResponse, "XML nested deeper than \(maxDepth) levels") }
        // Attributes: namespace declarations are kept, the others reported when asked; each must be well formed.
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
            let value = try decodeAttribute(buffer[valueStart..<index])
            index += 1
            if attribute == Self.xmlns {
                if namespaces.count >= Self.maxNamespaces { throw tooManyNamespaces() }
                namespaces.append(([], value))
                declared += 1
            } else if attribute.count > 6, attribute.starts(with: Self.xmlnsColon) {
                guard !value.isEmpty else { throw failure("an empty namespace for a prefix") }
                if namespaces.count >= Self.maxNamespaces { throw tooManyNamespaces() }
                namespaces.append((Array(attribute[6...]), value))
                declared += 1
            }
            if reportsAttributes { try report(attribute, value) }
            if index < last, !Self.isSpace(buffer[index]) { throw failure("attributes without white space between them") }
        }
        let name: XMLName
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
        // The delegate sees the text before this tag, which belongs to the parent.
        try delegate.didStart(name, reader: self)
        clearText()
        if selfClosing { try closeTop() }
    }

    /// Keeps an attribute for ``attributes``: at most ``maxAttributes``, none named twice
    /// (names compared as bytes).
    private func report(_ attribute: [UInt8], _ value: String) throws {
        if attributeList.count >= Self.maxAttributes {
            throw ProviderError(.invalidResponse, "XML element with more than \(Self.maxAttributes) attributes")
        }
        let name = decodeName(attribute[...])
        if attributeList.contains(where: { $0.name.utf8.elementsEqual(name.utf8) }) {
            throw failure("the attribute \(name.prefix(40)) named twice")
        }
        attributeList.append((name, value))
    }

    /// A name's bytes as a `String`, converted from ISO-8859-1 when the document is in it.
    private func decodeName(_ bytes: ArraySlice<UInt8>) -> String {
        guard latin1, bytes.contains(where: { $0 >= 0x80 }) else { return String(decoding: bytes, as: UTF8.self) }
        var name = ""
        name.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return name
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

    private func resolve(_ qualified: [UInt8]) throws -> XMLName {
        let colon = qualified.firstIndex(of: UInt8(ascii: ":"))
        let prefix = colon.map { Array(qualified[..<$0]) } ?? []
        let local = colon.map { qualified[($0 + 1)...] } ?? qualified[...]
        guard !local.isEmpty, !local.contains(UInt8(ascii: ":")) else { throw failure("a malformed qualified name") }
        let localName = decodeName(local)
        if prefix == Self.xmlPrefix { return XMLName(Self.xmlNamespace, localName) }
        for binding in namespaces.reversed() where binding.prefix == prefix {
            return XMLName(binding.uri, localName)
        }
        if prefix.isEmpty { return XMLName("", localName) }
        throw failure("the prefix \(String(decoding: prefix.prefix(40), as: UTF8.self)) is not bound to a namespace")
    }

    // MARK: Text

    private func clearText() {
        textBytes.removeAll(keepingCapacity: true)
        textUnits = 0
    }

    /// Appends raw (already checked) character data, converting ISO-8859-1 when declared and
    /// storing each line end (CR LF, or a CR alone) as one LF.
    private func appendText(_ run: Slice<UnsafeBufferPointer<UInt8>>) throws {
        if latin1 || runHasCarriageReturn || afterCarriageReturn {
            appendConverting(run)
        } else {
            textBytes.append(contentsOf: run)
            textUnits += Self.utf16Count(run)
        }
        if textUnits > maxTextLength { throw ProviderError(.invalidResponse, "XML element text longer than \(maxTextLength)") }
    }

    /// ``appendText(_:)`` a byte at a time, for ISO-8859-1 and for runs with carriage returns.
    private func appendConverting(_ run: Slice<UnsafeBufferPointer<UInt8>>) {
        for byte in run {
            if byte == 0x0D {
                textBytes.append(0x0A)
                textUnits += 1
                afterCarriageReturn = true
                continue
            }
            if byte == 0x0A, afterCarriageReturn {
                afterCarriageReturn = false
                continue
            }
            afterCarriageReturn = false
            if byte < 0x80 {
                textBytes.append(byte)
                textUnits += 1
            } else if latin1 {
                textBytes.append(0xC0 | (byte >> 6))
                textBytes.append(0x80 | (byte & 0x3F))
                textUnits += 1
            } else {
                textBytes.append(byte)
                if byte & 0xC0 != 0x80 { textUnits += byte >= 0xF0 ? 2 : 1 }
            }
        }
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
            afterCarriageReturn = false
            if textUnits > maxTextLength { throw ProviderError(.invalidResponse, "XML element text longer than \(maxTextLength)") }
            index = semicolon + 1
            plain = index
        }
        if plain < run.endIndex { try appendText(run[plain..<run.endIndex]) }
    }

    /// An attribute value, references decoded and white space normalised (XML 1.0 §3.3.3: each
    /// line end, tab or line feed written as such becomes a space; one written as a character
    /// reference stays), converted from ISO-8859-1 when the document is in it.
    private func decodeAttribute(_ value: Slice<UnsafeBufferPointer<UInt8>>) throws -> String {
        let latin1 = latin1
        guard value.contains(where: { $0 == UInt8(ascii: "&") || $0 < 0x20 || (latin1 && $0 >= 0x80) }) else {
            return String(decoding: value, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.count)
        var index = value.startIndex
        while index < value.endIndex {
            let byte = value[index]
            index += 1
            switch byte {
            case UInt8(ascii: "&"):
                guard let semicolon = value[(index - 1)..<min(value.endIndex, index + 11)].firstIndex(of: UInt8(ascii: ";")),
                    let scalar = Self.entity(value[index..<semicolon])
                else { throw failure("a bad entity reference in an attribute") }
                UTF8.encode(scalar) { bytes.append($0) }
                index = semicolon + 1
            case 0x0D:
                bytes.append(0x20)
                if index < value.endIndex, value[index] == 0x0A { index += 1 }
            case 0x0A, 0x09:
                bytes.append(0x20)
            default:
                if latin1, byte >= 0x80 {
                    bytes.append(0xC0 | (byte >> 6))
                    bytes.append(0x80 | (byte & 0x3F))
                } else {
                    bytes.append(byte)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Byte checks

    /// Refuses control characters and, unless the document is ISO-8859-1, bytes that are not UTF-8;
    /// returns whether `run` holds a carriage return.
    private func checkCharacters(_ run: Slice<UnsafeBufferPointer<UInt8>>) throws -> Bool {
        var index = run.startIndex
        let end = run.endIndex
        var carriageReturn = false
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
                if byte == 0x0D { carriageReturn = true }
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
        return carriageReturn
    }
}
