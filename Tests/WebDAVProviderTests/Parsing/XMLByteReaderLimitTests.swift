import Foundation
import NIOCore
import HTTPProviderKit
import ProviderAPI
import ProviderConformance
import Testing

@testable import WebDAVProvider

/// Records what an ``XMLByteReader`` reports, so two reads of the same document can be compared.
private final class Recorder: XMLByteReaderDelegate {
    var events: [String] = []
    func didStart(_ name: XMLName, reader: XMLByteReader) throws {
        events.append("start \(name) depth \(reader.depth)")
    }
    func didEnd(_ name: XMLName, reader: XMLByteReader) throws {
        events.append("end \(name) text [\(reader.text)]")
    }
}

/// The events of `bytes` fed in the pieces that start at `cuts` (offsets in increasing order).
private func events(_ bytes: [UInt8], cuts: [Int], maxMarkupLength: Int = 1 << 20) throws -> [String] {
    let recorder = Recorder()
    let reader = XMLByteReader(delegate: recorder, maxDepth: 64, maxTextLength: 1 << 20, maxMarkupLength: maxMarkupLength)
    var start = 0
    for cut in cuts.map({ min($0, bytes.count) }) + [bytes.count] where cut >= start {
        try reader.feed(bytes[start..<cut])
        start = cut
    }
    try reader.finish()
    return recorder.events
}

extension Parsing {
    /// Every construct of the XML reader is bounded and scanned once, however it is cut into pieces.
    @Suite("XMLByteReader bounds every construct and reads it in linear time")
    struct XMLByteReaderLimitTests {
        static let chunk = 4096

        /// An unfinished construct: the bytes that open it, and the byte that fills it forever.
        struct Unfinished: CustomTestStringConvertible, Sendable {
            var opening: String
            var filler: UInt8
            var construct: String
            var testDescription: String { construct + " opened by " + opening.suffix(24) }
        }

        static let unfinished: [Unfinished] = [
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><!--"#, filler: UInt8(ascii: "a"), construct: "comment"),
            // "-" and "--" never close a comment without their ">".
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><!--"#, filler: UInt8(ascii: "-"), construct: "comment"),
            Unfinished(opening: #"<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><?pi "#, filler: UInt8(ascii: "?"), construct: "processing instruction"),
            Unfinished(opening: #"<?pi "#, filler: UInt8(ascii: "x"), construct: "processing instruction"),
            Unfinished(opening: #"<?xml version="1.0" "#, filler: UInt8(ascii: " "), construct: "declaration"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><![CDATA["#, filler: UInt8(ascii: "]"), construct: "CDATA section"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><![CDATA["#, filler: UInt8(ascii: "b"), construct: "CDATA section"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><d:response "#, filler: UInt8(ascii: " "), construct: "start tag"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><d:"#, filler: UInt8(ascii: "n"), construct: "start tag"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:" a=""#, filler: UInt8(ascii: ">"), construct: "attribute value"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><x a='"#, filler: UInt8(ascii: "v"), construct: "attribute value"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"></d:multistatus"#, filler: UInt8(ascii: " "), construct: "end tag"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><d:href>"#, filler: UInt8(ascii: "t"), construct: "element text"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"><d:href>"#, filler: UInt8(ascii: "]"), construct: "element text"),
            Unfinished(opening: "", filler: UInt8(ascii: " "), construct: "white space outside the root element"),
            Unfinished(opening: #"<d:multistatus xmlns:d="DAV:"/>"#, filler: UInt8(ascii: "\n"), construct: "white space outside the root element"),
        ]

        @Test("an unfinished construct fed in 4 KiB pieces fails once past its limit, naming it", arguments: unfinished)
        func unfinishedFailsAtLimit(_ item: Unfinished) throws {
            let parser = MultistatusParser()
            let opening = Array(item.opening.utf8)
            let piece = [UInt8](repeating: item.filler, count: Self.chunk)
            var fed = 0
            var failure: ProviderError?
            do {
                try parser.feed(ByteBuffer(bytes: opening))
                fed += opening.count
                // Up to 4 MiB: four times the limit.
                while fed < 4 << 20 {
                    fed += piece.count
                    try parser.feed(ByteBuffer(bytes: piece))
                }
            } catch let error as ProviderError {
                failure = error
            }
            let error = try #require(failure, "4 MiB of an unfinished \(item.construct) were accepted")
            #expect(error.code == .invalidResponse)
            #expect(error.message?.contains("XML \(item.construct) longer than 1048576") == true, "\(error)")
            // It stopped at the piece that crossed the limit, not later.
            #expect(fed <= opening.count + (1 << 20) + Self.chunk)
            #expect(fed > 1 << 20)
        }

        @Test(
            "the same unfinished constructs cut at the end of the body fail as truncated, not as too long",
            arguments: unfinished.filter { !$0.opening.hasSuffix("/>") })
        func unfinishedAtEnd(_ item: Unfinished) throws {
            let parser = MultistatusParser()
            try parser.feed(ByteBuffer(bytes: Array(item.opening.utf8) + [UInt8](repeating: item.filler, count: 100)))
            let error = try #require(throws: ProviderError.self) { _ = try parser.finish() }
            #expect(error.code == .invalidResponse)
            #expect(error.message?.contains("longer than") == false, "\(error)")
        }

        #if DEBUG
            @Test("a construct arriving in many pieces is scanned once, not from its start on every piece", arguments: unfinished)
            func linearScan(_ item: Unfinished) throws {
                // A limit high enough that 4 MiB stay within it: nothing fails, only the work is counted.
                let reader = XMLByteReader(delegate: Recorder(), maxDepth: 64, maxTextLength: 64 << 20, maxMarkupLength: 64 << 20)
                let opening = Array(item.opening.utf8)
                try reader.feed(opening)
                let piece = [UInt8](repeating: item.filler, count: 1024)
                var fed = opening.count
                for _ in 0..<4096 {
                    try reader.feed(piece)
                    fed += piece.count
                }
                // Rescanning from the start would examine about fed² / (2 × 1024) bytes (8 GiB here);
                // a resumed scan looks at each byte once, plus the two bytes of a split delimiter per piece.
                #expect(reader.scannedBytes <= fed + 2 * 4096, "\(reader.scannedBytes) bytes examined for \(fed) fed")
            }

            @Test("a whole listing fed in small pieces is scanned about once")
            func linearListing() throws {
                let bytes = Array(try Fixtures.data("propfind-depth1-dav-files-oc10-manyfiles-EXCERPT.xml"))
                let reader = XMLByteReader(delegate: Recorder(), maxDepth: 64, maxTextLength: 1 << 20)
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + 7)
                    try reader.feed(bytes[start..<end])
                    start = end
                }
                try reader.finish()
                #expect(reader.scannedBytes <= 2 * bytes.count, "\(reader.scannedBytes) bytes examined for \(bytes.count)")
            }
        #endif

        @Test("every construct up to its limit is read, one byte more is refused")
        func exactLimit() throws {
            let limit = 200
            func document(_ markup: String) -> [UInt8] { Array(("<r>" + markup + "</r>").utf8) }
            let pad = { (count: Int) in String(repeating: "a", count: count) }
            let constructs: [(name: String, make: (Int) -> String)] = [
                ("comment", { "<!--" + pad($0 - 7) + "-->" }),
                ("processing instruction", { "<?pi " + pad($0 - 7) + "?>" }),
                ("CDATA section", { "<![CDATA[" + pad($0 - 12) + "]]>" }),
                ("start tag", { "<x a=\"" + pad($0 - 9) + "\"/>" }),
                ("end tag", { "<x></x" + String(repeating: " ", count: $0 - 4) + ">" }),
            ]
            for (name, make) in constructs {
                let fits = make(limit)
                for cuts in [[], Array(stride(from: 1, to: fits.utf8.count + 7, by: 3))] {
                    #expect(throws: Never.self, "\(name) of \(limit) bytes") {
                        try events(document(fits), cuts: cuts, maxMarkupLength: limit)
                    }
                    let error = #expect(throws: ProviderError.self, "\(name) of \(limit + 1) bytes") {
                        try events(document(make(limit + 1)), cuts: cuts, maxMarkupLength: limit)
                    }
                    #expect(error?.message == "XML \(name) longer than \(limit) bytes")
                }
            }
            let declaration = #"<?xml version="1.0" encoding="utf-8"   "#
            let padded = declaration + String(repeating: " ", count: limit - declaration.utf8.count - 2) + "?>"
            #expect(throws: Never.self) { try events(Array((padded + "<r/>").utf8), cuts: [], maxMarkupLength: limit) }
            let error = #expect(throws: ProviderError.self) {
                try events(Array((padded.dropLast(2) + " ?><r/>").utf8), cuts: [], maxMarkupLength: limit)
            }
            #expect(error?.message == "XML declaration longer than \(limit) bytes")
        }

        /// A document with every construct the reader knows, delimiters that look like ends, and `>` inside quotes.
        static let tricky = #"""
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment - with -- dashes -> and ->- -->
            <?pi with ? and > and ?? inside ?>
            <d:multistatus xmlns:d="DAV:" xmlns:x="urn:x" x:attr='a > b "quoted" -->' other="c >> d ?> ]]>">
            <!----><?e?><d:response><d:href>/caf&#xE9; &amp; th&#233;/&lt;&quot;&apos;&gt;/€😀/<![CDATA[a<b]]]]><![CDATA[>c ]] > ]>]]></d:href>
            <d:propstat><d:prop><x:note a='1 > 0' b="&amp;>"  >  spaced <!-- inner --> text </x:note><d:resourcetype><d:collection
            /></d:resourcetype><x:empty></x:empty   ><x:self x="/>"/></d:prop>
            <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus   >
            <!-- trailing --> <?trailing pi?>
            """#

        @Test("a document split in two at every byte reads exactly as the whole")
        func splitEverywhere() throws {
            let bytes = Array(Self.tricky.utf8)
            let whole = try events(bytes, cuts: [])
            #expect(whole.count > 20)
            #expect(whole.contains("end {DAV:}href text [/café & thé/<\"'>/€😀/a<b]]>c ]] > ]>]"))
            #expect(whole.contains("end {urn:x}note text [spaced  text]"))
            for cut in 0...bytes.count {
                #expect(try events(bytes, cuts: [cut]) == whole, "cut at \(cut)")
            }
            #expect(try events(bytes, cuts: Array(0...bytes.count)) == whole, "byte by byte")
        }

        @Test("a document cut at random places reads exactly as the whole")
        func randomCuts() throws {
            var generator = SplitMix64(seed: 13)
            let bytes = Array(Self.tricky.utf8)
            let whole = try events(bytes, cuts: [])
            for _ in 0..<300 {
                let count = Int.random(in: 1...12, using: &generator)
                let cuts = (0..<count).map { _ in Int.random(in: 0...bytes.count, using: &generator) }.sorted()
                #expect(try events(bytes, cuts: cuts) == whole, "cuts at \(cuts)")
            }
        }

        @Test("an ISO-8859-1 declaration split anywhere still sets the encoding")
        func latin1Split() throws {
            let bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><r>caf"#.utf8) + [0xE9] + Array("</r>".utf8)
            let whole = try events(bytes, cuts: [])
            #expect(whole.last == "end {}r text [café]")
            for cut in 0...bytes.count {
                #expect(try events(bytes, cuts: [cut]) == whole, "cut at \(cut)")
            }
        }

        @Test("a byte order mark and leading white space arriving in pieces are read once")
        func prologInPieces() throws {
            let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("  \n <?xml version=\"1.0\"?><r>x</r>".utf8)
            let whole = try events(bytes, cuts: [])
            #expect(whole == ["start {}r depth 1", "end {}r text [x]"])
            for cut in 0...bytes.count {
                #expect(try events(bytes, cuts: [cut]) == whole, "cut at \(cut)")
            }
            #expect(try events(bytes, cuts: Array(0...bytes.count)) == whole)
            // A byte order mark after white space is not one.
            #expect(throws: ProviderError.self) { try events([0x20] + bytes, cuts: [1]) }
        }

        @Test("every recording split at every hundredth byte parses as the whole", arguments: Fixtures.multistatusNames)
        func fixturesSplit(_ name: String) throws {
            let bytes = Array(try Fixtures.data(name))
            let whole = try events(bytes, cuts: [])
            for cut in stride(from: 0, through: bytes.count, by: max(1, bytes.count / 100)) {
                #expect(try events(bytes, cuts: [cut]) == whole, "\(name) cut at \(cut)")
            }
        }

        @Test("MultistatusParser.Limits.maxMarkupLength reaches the reader")
        func parserLimit() throws {
            var limits = MultistatusParser.Limits()
            limits.maxMarkupLength = 64
            let document = #"<d:multistatus xmlns:d="DAV:"><!-- "# + String(repeating: "x", count: 64) + " --></d:multistatus>"
            let error = #expect(throws: ProviderError.self) { try MultistatusParser.parse(Data(document.utf8), limits: limits) }
            #expect(error?.message == "XML comment longer than 64 bytes")
            #expect(try MultistatusParser.parse(Data(document.utf8)).isEmpty)
        }
    }
}

extension Parsing.XMLByteReaderLimitTests {
    @Test("at most 256 namespace declarations are in scope at once; those that went out of scope do not count")
    func namespaceCount() throws {
        func declarations(_ count: Int, from first: Int = 0) -> String {
            (first..<(first + count)).map { " xmlns:p\($0)=\"urn:\($0)\"" }.joined()
        }
        let fits = "<r xmlns=\"urn:d\"\(declarations(255))><p254:a/></r>"
        #expect(try events(Array(fits.utf8), cuts: []).first == "start {urn:d}r depth 1")
        let error = #expect(throws: ProviderError.self) {
            try events(Array("<r\(declarations(200))><a\(declarations(57, from: 200))/></r>".utf8), cuts: [])
        }
        #expect(error?.message == "XML with more than 256 namespace declarations in scope")
        // 200 on each of many siblings: each set goes out of scope with its element.
        let siblings = "<r>" + String(repeating: "<a\(declarations(200))/>", count: 10) + "</r>"
        #expect(try events(Array(siblings.utf8), cuts: []).count == 22)
    }
}

extension Parsing.XMLByteReaderLimitTests {
    @Test("a WebDAV error body's long message is kept to about its first 4096 characters")
    func errorBodyMessage() throws {
        let long = String(repeating: "é", count: 30_000)
        let body = #"<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:message>"# + long + "</s:message></d:error>"
        let parsed = try #require(DAVErrorBody.parse(Data(body.utf8)))
        let message = try #require(parsed.message)
        #expect(message.unicodeScalars.allSatisfy { $0 == "é" })
        #expect(message.count >= 4096)
        #expect(message.count <= 8192)
    }
}

extension Parsing.XMLByteReaderLimitTests {
    static let errorBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns">
          <s:exception>Sabre\\DAV\\Exception\\NotFound</s:exception>
          <s:message>File with name a.txt could not be located</s:message>
        </d:error>
        """

    @Test("a WebDAV error body cut short keeps what was complete; what follows its root is not read")
    func errorBodyLeniency() throws {
        let whole = try #require(DAVErrorBody.parse(Data(Self.errorBody.utf8)))
        #expect(whole.message == "File with name a.txt could not be located")
        #expect(whole.exception == #"Sabre\DAV\Exception\NotFound"#)
        // Cut inside the root's end tag, as a body read up to a limit can be.
        let cut = try #require(DAVErrorBody.parse(Data(Self.errorBody.dropLast(4).utf8)))
        #expect(cut.message == whole.message)
        // Cut inside the message: the message is not taken half.
        let half = Self.errorBody.components(separatedBy: "could not")[0]
        #expect(try #require(DAVErrorBody.parse(Data(half.utf8))).message == nil)
        #expect(DAVErrorBody.parse(Data((Self.errorBody + "<html>trailing</html>").utf8))?.message == whole.message)
    }

    @Test("a malformed error body, or one that is not a DAV:error, gives nothing", arguments: [
        "<d:error xmlns:d=\"DAV:\"><s:message>x</s:message></d:error>",
        "<d:error xmlns:d=\"DAV:\"><message>x</mess></d:error>",
        "<error><message>x</message></error>",
        "<!DOCTYPE html><html><body>Not found</body></html>",
        "",
    ])
    func errorBodyRefused(body: String) {
        #expect(DAVErrorBody.parse(Data(body.utf8)) == nil)
    }
}
