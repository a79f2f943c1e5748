import Foundation
import HTTPProviderKit
import NIOCore
import ProviderAPI

/// Parses a WebDAV `207 Multi-Status` body, all at once or while it streams.
///
/// Hardened for hostile input (see `XMLByteReader`): a document with a DTD (`<!DOCTYPE`,
/// `<!ENTITY`) is refused, so no external entity is ever opened and no entity is
/// expanded; nesting depth, element text and the number of responses are bounded.
/// Unknown elements are skipped and properties are matched by namespace, never by prefix.
/// Every failure is a `ProviderError` with code `ProviderError.Code.invalidResponse`.
///
/// ```swift
/// let parser = MultistatusParser()
/// for try await piece in response.body { try parser.feed(piece) }
/// let responses = try parser.finish()
/// ```
package final class MultistatusParser {
    /// Limits that bound the work a hostile answer can cause.
    package struct Limits: Sendable {
        /// Deepest element nesting accepted.
        package var maxDepth = 64
        /// Longest text of one element, in UTF-16 units.
        package var maxTextLength = 1 << 20
        /// Longest markup construct (a tag with its attributes, a comment, a processing
        /// instruction, a CDATA section), in bytes.
        package var maxMarkupLength = 1 << 20
        /// Most `response` elements accepted.
        package var maxResponses = 1_000_000
        /// Creates the default limits.
        package init() {}
    }

    private let builder: MultistatusBuilder
    private let reader: XMLByteReader

    /// A parser for one document, fed with ``feed(_:)-(ByteBuffer)`` and ended with ``finish()``.
    package init(limits: Limits = Limits()) {
        builder = MultistatusBuilder(limits: limits, onResponse: nil)
        reader = XMLByteReader(
            delegate: builder, maxDepth: limits.maxDepth, maxTextLength: limits.maxTextLength, maxMarkupLength: limits.maxMarkupLength)
    }

    /// A parser that hands each response to `onResponse` as soon as it is complete, keeping
    /// none: ``finish()`` then returns no responses. An error thrown by `onResponse` ends the parse.
    package init(limits: Limits = Limits(), onResponse: @escaping (DAVResponse) throws -> Void) {
        builder = MultistatusBuilder(limits: limits, onResponse: onResponse)
        reader = XMLByteReader(
            delegate: builder, maxDepth: limits.maxDepth, maxTextLength: limits.maxTextLength, maxMarkupLength: limits.maxMarkupLength)
    }

    /// A parser that hands each response to `onEntry` as soon as it is complete, as a
    /// ``DAVListingEntry`` (no dictionary per `propstat`), keeping none. An error thrown by
    /// `onEntry` ends the parse.
    ///
    /// With `itemFields`, the DAV: properties of an item (``DAVItemFields/Property``) are read
    /// into each entry's ``DAVListingEntry/fields`` as they arrive, and left out of its
    /// ``DAVListingEntry/found``, which then holds only the other properties.
    package init(limits: Limits = Limits(), itemFields: Bool = false, onEntry: @escaping (DAVListingEntry) throws -> Void) {
        builder = MultistatusBuilder(limits: limits, itemFields: itemFields, onEntry: onEntry)
        reader = XMLByteReader(
            delegate: builder, maxDepth: limits.maxDepth, maxTextLength: limits.maxTextLength, maxMarkupLength: limits.maxMarkupLength)
    }

    /// How many responses the document had so far.
    package var responseCount: Int { builder.responseCount }

    /// Parses the next piece of the body.
    package func feed(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { try reader.feed($0) }
    }

    /// Parses the next piece of the body.
    package func feed(_ data: Data) throws {
        try data.withUnsafeBytes { try reader.feed($0) }
    }

    /// Ends the document and returns its responses, in document order.
    package func finish() throws -> [DAVResponse] {
        try reader.finish()
        guard builder.sawMultistatus else {
            throw ProviderError(.invalidResponse, "the answer is not a DAV:multistatus document")
        }
        return builder.responses
    }

    /// Parses a whole document.
    package static func parse(_ data: Data, limits: Limits = Limits()) throws -> [DAVResponse] {
        let parser = MultistatusParser(limits: limits)
        try parser.feed(data)
        return try parser.finish()
    }

    /// `HTTP/1.1 200 OK` → 200.
    package static func statusCode(_ line: String) -> Int? {
        statusCode(line.utf8)
    }

    /// The status code of a status line given as UTF-8 bytes: the second of the words the
    /// spaces separate, when the first starts with `HTTP/` in any case (one pass, no array of words).
    package static func statusCode<Bytes: Collection<UInt8>>(_ line: Bytes) -> Int? {
        let space = UInt8(ascii: " ")
        var index = line.startIndex
        func word() -> Bytes.SubSequence {
            while index != line.endIndex, line[index] == space { index = line.index(after: index) }
            let start = index
            while index != line.endIndex, line[index] != space { index = line.index(after: index) }
            return line[start..<index]
        }
        let version = word()
        let code = word()
        guard version.count >= 5, !code.isEmpty, code.count <= 9 else { return nil }
        // Byte by byte rather than through `zip`, whose generic sequence cost a run-time
        // conformance lookup at its first use and more per status than the comparison itself.
        var at = version.startIndex
        for expected in "HTTP/".utf8 {
            let byte = version[at]
            guard (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte) == expected else { return nil }
            at = version.index(after: at)
        }
        var value = 0
        for byte in code {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

/// Builds ``DAVResponse`` values (or ``DAVListingEntry`` values) from the reader's element events.
///
/// The properties of the open `propstat` are collected in a short list (a property named twice
/// keeps its last value, as a dictionary would); when the `propstat` closes they become a
/// ``DAVPropstat`` of the response, or, for an entry, join its ``DAVListingEntry/found``
/// properties when its status is 2xx and no earlier 2xx `propstat` had them (as ``DAVResponse/found``).
private final class MultistatusBuilder: XMLByteReaderDelegate {
    let limits: MultistatusParser.Limits
    var responses: [DAVResponse] = []
    @exclusivity(unchecked) private(set) var responseCount = 0
    private let onResponse: ((DAVResponse) throws -> Void)?
    private let onEntry: ((DAVListingEntry) throws -> Void)?
    @exclusivity(unchecked) var sawMultistatus = false

    // Read and written only by the reader's calls, one at a time: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var inResponse = false
    @exclusivity(unchecked) private var href = ""
    @exclusivity(unchecked) private var status: Int?
    @exclusivity(unchecked) private var message: String?
    @exclusivity(unchecked) private var propstats: [DAVPropstat] = []
    @exclusivity(unchecked) private var found = PropertyList()
    @exclusivity(unchecked) private var inPropstat = false
    @exclusivity(unchecked) private var propstatStatus = 0
    @exclusivity(unchecked) private var properties = PropertyList()
    @exclusivity(unchecked) private var propName: DAVPropertyName?
    @exclusivity(unchecked) private var propChildren: [DAVPropertyName] = []
    @exclusivity(unchecked) private var propChildTexts: [String] = []
    /// Whether the element at depth 4 is `DAV:prop`.
    @exclusivity(unchecked) private var inProp = false
    /// Whether item properties are read into ``DAVItemFields`` (entries only).
    private let itemFields: Bool
    /// The item property open at depth 5, read into fields.
    @exclusivity(unchecked) private var fieldProperty: DAVItemFields.Property?
    /// Whether the open `resourcetype` read into fields has a `DAV:collection` child.
    @exclusivity(unchecked) private var fieldCollection = false
    /// The item fields of the open `propstat`, and those its response has taken from 2xx ones.
    @exclusivity(unchecked) private var propstatFields = DAVItemFields()
    @exclusivity(unchecked) private var entryFields = DAVItemFields()

    init(limits: MultistatusParser.Limits, onResponse: ((DAVResponse) throws -> Void)?) {
        self.limits = limits
        self.onResponse = onResponse
        self.onEntry = nil
        self.itemFields = false
    }

    init(limits: MultistatusParser.Limits, itemFields: Bool, onEntry: @escaping (DAVListingEntry) throws -> Void) {
        self.limits = limits
        self.onResponse = nil
        self.onEntry = onEntry
        self.itemFields = itemFields
    }

    func didStart(_ name: XMLName, reader: XMLByteReader) throws {
        let depth = reader.depth
        let isDAV = name.namespace == DAVPropertyName.dav
        if depth == 1 {
            guard isDAV, name.name == "multistatus" else {
                throw ProviderError(.invalidResponse, "expected DAV:multistatus, found \(name)")
            }
            sawMultistatus = true
        } else if depth == 2, isDAV, name.name == "response" {
            if responseCount >= limits.maxResponses {
                throw ProviderError(.invalidResponse, "more than \(limits.maxResponses) responses")
            }
            inResponse = true
            href = ""
            status = nil
            message = nil
            propstats = []
            found.removeAll()
            entryFields = DAVItemFields()
        } else if depth == 3, isDAV, name.name == "propstat", inResponse {
            inPropstat = true
            propstatStatus = 0
            properties.removeAll()
            propstatFields = DAVItemFields()
        } else if depth == 4 {
            inProp = isDAV && name.name == "prop"
        } else if depth == 5, inPropstat, inProp {
            if itemFields, let property = DAVItemFields.Property(name) {
                fieldProperty = property
                fieldCollection = false
                return
            }
            propName = name
            propChildren = []
            propChildTexts = []
        } else if depth == 6, propName != nil {
            propChildren.append(name)
        } else if depth == 6, fieldProperty == .resourcetype, isDAV, name.name == "collection" {
            fieldCollection = true
        }
    }

    func didEnd(_ name: XMLName, reader: XMLByteReader) throws {
        let depth = reader.depth
        let isDAV = name.namespace == DAVPropertyName.dav
        if depth == 3, isDAV, name.name == "href" {
            if inResponse { href = reader.text }
        } else if depth == 3, isDAV, name.name == "status" {
            if inResponse { status = reader.textStatusCode }
        } else if depth == 3, isDAV, name.name == "responsedescription" || name.name == "error" {
            let value = reader.text
            if inResponse, !value.isEmpty { message = value }
        } else if depth == 4, isDAV, name.name == "status", inPropstat {
            propstatStatus = reader.textStatusCode ?? 0
        } else if depth == 6, propName != nil, propChildTexts.count < propChildren.count {
            propChildTexts.append(reader.text)
        } else if depth == 5, let property = fieldProperty {
            readField(property, reader: reader)
            fieldProperty = nil
        } else if depth == 5, let propName, propName.name == name.name, propName.namespace == name.namespace {
            properties.set(propName, DAVPropertyValue(text: reader.text, children: propChildren, childTexts: propChildTexts))
            self.propName = nil
        } else if depth == 3, isDAV, name.name == "propstat", inPropstat {
            closePropstat()
            inPropstat = false
        } else if depth == 2, isDAV, name.name == "response", inResponse {
            // A response without a usable href (chezdav sends some empty) is still delivered, with
            // an empty href: the caller drops that one entry or names it by its `displayname`,
            // rather than losing the whole answer.
            if href.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { href = "" }
            responseCount += 1
            inResponse = false
            if let onEntry {
                // An empty list is passed as the empty array, so `found` keeps its storage unshared.
                try onEntry(
                    DAVListingEntry(
                        href: href, status: status, message: message, found: found.items.isEmpty ? [] : found.items,
                        fields: itemFields ? entryFields : nil))
            } else {
                let done = DAVResponse(href: href, status: status, propstats: propstats, message: message)
                if let onResponse { try onResponse(done) } else { responses.append(done) }
            }
            propstats = []
            found.removeAll()
        }
        if depth == 4 { inProp = false }
    }

    private func closePropstat() {
        if onEntry == nil {
            var dictionary = Dictionary<DAVPropertyName, DAVPropertyValue>(minimumCapacity: max(8, properties.items.count))
            for (name, value) in properties.items { dictionary[name] = value }
            propstats.append(DAVPropstat(status: propstatStatus, properties: dictionary))
        } else if (200..<300).contains(propstatStatus) {
            for (name, value) in properties.items { found.add(name, value) }
            entryFields.merge(propstatFields)
        }
    }

    /// Reads the text of the item property closing now into the open `propstat`'s fields
    /// (a property named twice in one `propstat` keeps its last value, as in ``properties``).
    private func readField(_ property: DAVItemFields.Property, reader: XMLByteReader) {
        switch property {
        case .resourcetype:
            propstatFields.isCollection = fieldCollection
        case .getcontentlength:
            propstatFields.size = reader.withText { DAVItemFields.size(utf8: $0) }
        case .getlastmodified:
            propstatFields.modified = reader.withText { DAVDate.modified(utf8: $0) }
        case .creationdate:
            propstatFields.created = DAVItemFields.created(reader.text)
        case .getetag:
            propstatFields.etag = DAVItemMapper.normalizeETag(reader.text)
        case .getcontenttype:
            propstatFields.contentType = reader.text
        }
        propstatFields.insert(property)
    }
}

extension XMLByteReader {
    /// The status code of the HTTP status line in `text` (`HTTP/1.1 200 OK` → 200), read without making a `String`.
    package var textStatusCode: Int? { withText { MultistatusParser.statusCode($0) } }
}
