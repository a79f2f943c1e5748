import Foundation
import HTTPProviderKit
import ProviderAPI
import Testing

@testable import WebDAVProvider

/// The entries a listing reads, parsed while `data` streams in pieces of `size` bytes.
private func entries(_ data: Data, size: Int = 7, itemFields: Bool = false) throws -> [DAVListingEntry] {
    var result: [DAVListingEntry] = []
    let parser = MultistatusParser(itemFields: itemFields, onEntry: { result.append($0) })
    var offset = 0
    while offset < data.count {
        try parser.feed(data.subdata(in: offset..<min(data.count, offset + size)))
        offset += size
    }
    _ = try parser.finish()
    return result
}

/// Records what an ``XMLByteReader`` reports: each element's start, and its end with its text.
private final class EventLog: XMLByteReaderDelegate {
    var events: [String] = []
    func didStart(_ name: XMLName, reader: XMLByteReader) throws { events.append("<\(name) \(reader.depth)") }
    func didEnd(_ name: XMLName, reader: XMLByteReader) throws {
        events.append(">\(name) \(reader.text.debugDescription) \(reader.textStatusCode.map(String.init) ?? "-")")
    }
}

/// The events of `data` fed in pieces of `size` bytes, as `Data` (read in place) or as a lazily mapped array (not contiguous, copied).
private func events(_ data: Data, size: Int, contiguous: Bool) throws -> [String] {
    let log = EventLog()
    let reader = XMLByteReader(delegate: log, maxDepth: 64, maxTextLength: 1 << 16, maxMarkupLength: 4096)
    let bytes = Array(data)
    for start in stride(from: 0, to: bytes.count, by: size) {
        let range = start..<min(bytes.count, start + size)
        if contiguous { try reader.feed(data.subdata(in: range)) } else { try reader.feed(bytes[range].lazy.map { $0 }) }
    }
    try reader.finish()
    return log.events
}

/// The href → path mapping as it was before it became one pass: decode every segment, then
/// compare the root's, then build the path (kept here as the reference).
private func referencePath(_ path: String, href: String, rootSegments: [String]) throws -> ItemPath {
    var segments: [String] = []
    for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
        let decoded = try DAVPathMapper.percentDecode(raw)
        if decoded == "." || decoded == ".." || decoded.utf8.contains(UInt8(ascii: "/")) || decoded.utf8.contains(0) {
            throw ProviderError(.invalidResponse, "the server sent a path segment that is not a name: \(raw.prefix(100))")
        }
        segments.append(decoded)
    }
    guard segments.count >= rootSegments.count, zip(segments, rootSegments).allSatisfy({ $0.utf8.elementsEqual($1.utf8) }) else {
        throw ProviderError(.invalidResponse, "the server named an item outside the root: \(href.prefix(200))")
    }
    return try ItemPath(segments: Array(segments.dropFirst(rootSegments.count)))
}

extension Parsing {
    @Suite("Listing entries and hrefs in one pass")
    struct ListingEntryTests {
        @Test("every recording: a listing entry maps to the same item as its response, read whole or in pieces")
        func recordings() throws {
            let mapper = try DAVPathMapper(root: try #require(URL(string: "https://cloud.example/")))
            for name in try Fixtures.discoveredMultistatusNames() {
                let data = try Fixtures.data(name)
                let responses = try MultistatusParser.parse(data)
                for size in [1, 7, 4096, data.count] {
                    let listed = try entries(data, size: size)
                    try #require(listed.count == responses.count, "\(name)")
                    for (entry, response) in zip(listed, responses) {
                        #expect(entry.href == response.href && entry.status == response.status && entry.message == response.message, "\(name)")
                        #expect(entry.foundByName == response.found, "\(name) \(response.href)")
                        let path = (try? mapper.path(forHref: response.href)) ?? .root
                        let fromEntry = DAVItemMapper.item(path: path, entry: entry)
                        let fromResponse = DAVItemMapper.item(path: path, properties: response.found)
                        #expect(fromEntry == fromResponse, "\(name) \(response.href)")
                        #expect(
                            OwnCloudProperties.refine(fromEntry, properties: entry.foundByName)
                                == OwnCloudProperties.refine(fromResponse, properties: response.found), "\(name)")
                    }
                }
            }
        }

        @Test("every recording: item properties read as they stream give the same item, and the other properties stay found")
        func recordingsWithItemFields() throws {
            let mapper = try DAVPathMapper(root: try #require(URL(string: "https://cloud.example/")))
            for name in try Fixtures.discoveredMultistatusNames() {
                let data = try Fixtures.data(name)
                let responses = try MultistatusParser.parse(data)
                for size in [1, 7, 4096, data.count] {
                    let listed = try entries(data, size: size, itemFields: true)
                    try #require(listed.count == responses.count, "\(name)")
                    for (entry, response) in zip(listed, responses) {
                        #expect(entry.href == response.href && entry.status == response.status && entry.message == response.message, "\(name)")
                        #expect(entry.fields != nil, "\(name)")
                        #expect(entry.foundByName == response.found.filter { DAVItemFields.Property(XMLName($0.key.namespace, $0.key.name)) == nil }, "\(name) \(response.href)")
                        let path = (try? mapper.path(forHref: response.href)) ?? .root
                        #expect(
                            DAVItemMapper.item(path: path, entry: entry) == DAVItemMapper.item(path: path, properties: response.found),
                            "\(name) \(response.href)")
                    }
                }
            }
        }

        @Test("item fields follow the found rules: the last value within a propstat, the first 2xx propstat across them, none from a failed one")
        func itemFieldRules() throws {
            let text = #"""
                <D:multistatus xmlns:D="DAV:" xmlns:x="urn:x"><D:response><D:href>/a</D:href>
                <D:propstat><D:prop><D:getetag>"one"</D:getetag><x:p>first</x:p><D:getetag>"two"</D:getetag>
                <D:getcontentlength>-3</D:getcontentlength><D:resourcetype/></D:prop>
                <D:status>HTTP/1.1 200 OK</D:status></D:propstat>
                <D:propstat><D:prop><D:getlastmodified>Sun, 06 Nov 1994 08:49:37 GMT</D:getlastmodified></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
                <D:propstat><D:prop><x:p>second</x:p><D:getcontentlength>5</D:getcontentlength><D:resourcetype><D:collection/></D:resourcetype>
                <D:getcontenttype>text/plain</D:getcontenttype><D:creationdate>2023-07-24T16:30:44Z</D:creationdate>
                <D:getlastmodified> Mon, 31 Aug 2020 06:40:13 GMT </D:getlastmodified></D:prop>
                <D:status>HTTP/1.1 200 OK</D:status></D:propstat>
                </D:response><D:response><D:href>/b</D:href><D:propstat><D:prop><D:getetag>bare</D:getetag>
                <D:getcontentlength>+0012</D:getcontentlength><D:resourcetype><x:collection/><D:other/></D:resourcetype>
                <D:getcontenttype>text/plain</D:getcontenttype><D:getlastmodified>yesterday</D:getlastmodified>
                <D:getcontentlength>99999999999999999999</D:getcontentlength><D:getcontentlength>123456789012345678</D:getcontentlength></D:prop>
                <D:status>HTTP/1.1 200 OK</D:status></D:propstat><D:propstat><D:prop><D:getlastmodified>Sun, 06 Nov 1994 08:49:37 GMT</D:getlastmodified>
                </D:prop><D:status>HTTP/1.1 403 Forbidden</D:status></D:propstat></D:response>
                </D:multistatus>
                """#
            let data = Data(text.utf8)
            let responses = try MultistatusParser.parse(data)
            for size in [1, 7, data.count] {
                let listed = try entries(data, size: size, itemFields: true)
                try #require(listed.count == 2)
                for (entry, response) in zip(listed, responses) {
                    #expect(DAVItemMapper.item(path: "/a", entry: entry) == DAVItemMapper.item(path: "/a", properties: response.found))
                }
                let a = DAVItemMapper.item(path: "/a", entry: listed[0])
                // resourcetype, getcontentlength (-3: no size) and getetag from the first 200 propstat; the rest from the second.
                #expect(a.kind == .file && a.size == nil && a.etag == "\"two\"" && a.mimeType == "text/plain")
                #expect(a.modified == Date(timeIntervalSince1970: 1_598_856_013) && a.created == Date(timeIntervalSince1970: 1_690_216_244))
                #expect(a.properties == ["{urn:x}p": "first"])
                #expect(listed[0].found.map(\.value.text) == ["first"])
                let b = DAVItemMapper.item(path: "/b", entry: listed[1])
                #expect(b.kind == .file && b.size == 123_456_789_012_345_678 && b.etag == "\"bare\"" && b.modified == nil)
                #expect(b.properties.isEmpty && listed[1].found.isEmpty)
            }
        }

        @Test("sizes read from bytes agree with Int64 of the text", arguments: [
            "0", "5", "0012", "+12", "-0", "-5", "", "+", "-", " 5", "5 ", "1.5", "1e3", "0x10", "٣", "９",
            "123456789012345678", "999999999999999999", "9223372036854775807", "9223372036854775808", "99999999999999999999",
            "00000000000000000000000001",
        ])
        func sizesFromBytes(_ text: String) {
            let want = Int64(text).flatMap { $0 >= 0 ? $0 : nil }
            #expect(Array(text.utf8).withUnsafeBufferPointer { DAVItemFields.size(utf8: $0) } == want, "\(text.debugDescription)")
        }

        @Test("found properties: the last value within a propstat, the first 2xx propstat across them, none from a failed one")
        func foundRules() throws {
            let text = #"""
                <D:multistatus xmlns:D="DAV:" xmlns:x="urn:x"><D:response><D:href>/a</D:href>
                <D:propstat><D:prop><D:getetag>"one"</D:getetag><x:p>first</x:p><D:getetag>"two"</D:getetag></D:prop>
                <D:status>HTTP/1.1 200 OK</D:status></D:propstat>
                <D:propstat><D:prop><D:getcontentlength>9</D:getcontentlength></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>
                <D:propstat><D:prop><x:p>second</x:p><D:getcontentlength>5</D:getcontentlength><D:resourcetype><D:collection/></D:resourcetype></D:prop>
                <D:status>HTTP/1.1 200 OK</D:status></D:propstat>
                </D:response><D:response><D:href>/b</D:href><D:propstat><D:prop><D:getetag>"x"</D:getetag></D:prop>
                <D:status>HTTP/1.1 403 Forbidden</D:status></D:propstat></D:response>
                <D:response><D:href>/c</D:href><D:status>HTTP/1.1 404 Not Found</D:status><D:responsedescription>gone</D:responsedescription></D:response>
                </D:multistatus>
                """#
            let data = Data(text.utf8)
            let responses = try MultistatusParser.parse(data)
            let listed = try entries(data)
            try #require(listed.count == 3)
            #expect(listed.map(\.foundByName) == responses.map(\.found))
            #expect(listed[0].found.map(\.value.text) == ["\"two\"", "first", "5", ""])
            #expect(listed[1].found.isEmpty)
            #expect(listed[2].status == 404 && listed[2].message == "gone")
            let item = DAVItemMapper.item(path: "/a", entry: listed[0])
            #expect(item == DAVItemMapper.item(path: "/a", properties: responses[0].found))
            #expect(item.kind == .folder && item.etag == "\"two\"" && item.size == 5 && item.properties == ["{urn:x}p": "first"])
        }

        @Test("a response without an href is one entry with an empty href; the limit on responses ends a listing as it ends a parse")
        func refusals() throws {
            let noHref = Data(#"<D:multistatus xmlns:D="DAV:"><D:response><D:status>HTTP/1.1 200 OK</D:status></D:response></D:multistatus>"#.utf8)
            #expect(try entries(noHref).map(\.href) == [""])
            #expect(try entries(noHref, itemFields: true).map(\.href) == [""])
            var limits = MultistatusParser.Limits()
            limits.maxResponses = 1
            let two = Data(#"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href></D:response><D:response><D:href>/b</D:href></D:response></D:multistatus>"#.utf8)
            let parser = MultistatusParser(limits: limits, onEntry: { _ in })
            #expect(throws: ProviderError.self) {
                try parser.feed(two)
                _ = try parser.finish()
            }
        }

        @Test("hrefs mapped in one pass give the paths and the errors of decoding first and comparing after")
        func hrefsInOnePass() throws {
            let roots = ["http://h.example/", "http://h.example/dav/", "http://h.example/r%C3%A9/sub%20dir/"]
            let hrefs = [
                "/", "/dav/", "/dav/a", "/dav//a///b/", "/dav/a%20b/c%2Fd", "/dav/%2e%2e/x", "/dav/./x", "/dav/..", "/dav/a%00b",
                "/dav/%C3%A9t%C3%A9", "/dav/%C3%28", "/dav/%ZZ%4", "/dav/100%", "/other/a", "/other/%2e%2e", "/da/", "/dav",
                "/r%C3%A9/sub%20dir/f", "/r%c3%a9/sub dir/f", "/ré/sub dir/f", "/re\u{301}/sub dir/f", "/dav/\u{301}x",
                "/dav\u{600}/x", "/dav/x\u{600}/y", "/dav/\u{600}/y", "/dav/e\u{301}/", "/dav/日本/語", "/dav/a?q=1", "/dav/a#f",
                "/dav/%2F", "/other/x/%2e%2e", "/r%C3%A9/sub%20dir/%C3%28", "http://h.example/dav/a", "HTTP://H.EXAMPLE:80/dav/b",
                "http://other.example/dav/a", "dav/a", "/r%C3%A9/", "/r%C3%A9/sub%20dir",
            ]
            for root in roots {
                let mapper = try DAVPathMapper(root: try #require(URL(string: root)))
                let rootSegments = try DAVPathMapper.decodeSegments(try #require(URL(string: root)).path)
                for href in hrefs {
                    let got = Result { try mapper.path(forHref: href) }
                    // Hrefs with a scheme or not starting with "/" go through the unchanged authority checks first.
                    guard href.hasPrefix("/") else { continue }
                    // In a path href a raw `?` or `#` is a name character (chezdav), not a query or fragment.
                    let want = Result { try referencePath(href, href: href, rootSegments: rootSegments) }
                    switch (got, want) {
                    case (.success(let a), .success(let b)):
                        #expect(a == b, "\(root) \(href.debugDescription)")
                    case (.failure(let a as ProviderError), .failure(let b as ProviderError)):
                        #expect(a.code == .invalidResponse, "\(root) \(href.debugDescription)")
                        #expect(a.message == b.message, "\(root) \(href.debugDescription)")
                    default:
                        Issue.record("\(root) \(href.debugDescription): \(got) against \(want)")
                    }
                }
            }
        }

        @Test("pieces read in place and pieces copied give the same events, and the same error at the same byte")
        func inPlaceAndCopied() throws {
            var documents: [Data] = []
            for name in try Fixtures.discoveredMultistatusNames() { documents.append(try Fixtures.data(name)) }
            let broken = [
                #"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href></D:response><D:response><D:href>/b</D:hre></D:response></D:multistatus>"#,
                #"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a&bogus;</D:href></D:response></D:multistatus>"#,
                #"<D:multistatus xmlns:D="DAV:"><!-- a > b --><D:response><D:href a="x>y">/a</D:href></D:response></D:multistatus>trailing"#,
                "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>/\u{1}</D:href></D:response></D:multistatus>",
                #"<D:multistatus xmlns:D="DAV:"><D:response><D:href><![CDATA[/a>b]]></D:href></D:response></D:multistatus>"#,
                "\u{FEFF}<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>/é</D:href></D:response></D:multistatus>",
            ]
            documents += broken.map { Data($0.utf8) }
            for data in documents {
                let whole = Result { try events(data, size: data.count, contiguous: true) }
                for size in [1, 2, 5, 64, 1000] {
                    // `Data` is contiguous (read in place); a lazily mapped array is not (copied, as before).
                    let inPlace = Result { try events(data, size: size, contiguous: true) }
                    let copied = Result { try events(data, size: size, contiguous: false) }
                    switch (inPlace, copied) {
                    case (.success(let a), .success(let b)):
                        #expect(a == b, "\(size)")
                        if case .success(let c) = whole { #expect(a == c, "\(size)") }
                    case (.failure(let a as ProviderError), .failure(let b as ProviderError)):
                        #expect(a.message == b.message, "\(size)")
                    default:
                        Issue.record("\(size): \(inPlace) against \(copied)")
                    }
                }
            }
        }

        @Test("a response of 100,000 distinct properties in two propstats: every one kept once, as the dictionaries did", .timeLimit(.minutes(1)))
        func manyProperties() throws {
            let count = 100_000
            var xml = #"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:x="urn:x"><d:response><d:href>/dav/a</d:href>"#
            for status in ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"] {
                xml += "<d:propstat><d:prop>"
                for index in 0..<count { xml += "<x:p\(index)>\(index)</x:p\(index)>" }
                xml += "</d:prop><d:status>\(status)</d:status></d:propstat>"
            }
            xml += "</d:response></d:multistatus>"
            let data = Data(xml.utf8)
            let listed = try entries(data, size: 64 << 10)
            #expect(listed.count == 1)
            #expect(listed.first?.found.count == count)
            #expect(listed.first?.foundByName[DAVPropertyName("urn:x", "p77777")]?.text == "77777")
            let parsed = try MultistatusParser.parse(data)
            #expect(parsed.first?.found.count == count)
        }

        @Test("names are ordered by their bytes, native, small, bridged or not ASCII")
        func bytesPrecede() {
            let names = [
                "", "a", "b", "a0", "aa", "ab", "entry-09991.txt", "entry-09991.txt0", "é", "e\u{301}", "Z", "~", "\u{7F}", "\u{80}",
                "résumé", "日本", "😀", "a long name that is not a small string", "a long name that is not a small string!",
            ]
            let bridged = names.map { NSString(string: $0) as String }
            for a in names + bridged {
                for b in names + bridged {
                    #expect(WebDAVProvider.bytesPrecede(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a.debugDescription) \(b.debugDescription)")
                }
            }
        }
    }
}
