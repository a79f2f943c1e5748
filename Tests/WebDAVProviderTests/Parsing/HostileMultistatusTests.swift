import Foundation
import ProviderAPI
import ProviderConformance
import Testing

@testable import WebDAVProvider

/// Parses `data` and expects an `invalidResponse` error; returns it for further checks.
@discardableResult
private func expectInvalid(
    _ data: Data, limits: MultistatusParser.Limits = .init(), _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> ProviderError? {
    do {
        let responses = try MultistatusParser.parse(data, limits: limits)
        Issue.record("parsed \(responses.count) responses from hostile input \(comment)", sourceLocation: sourceLocation)
        return nil
    } catch let error as ProviderError {
        #expect(error.code == .invalidResponse, "\(error) \(comment)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("threw a non-ProviderError \(error) \(comment)", sourceLocation: sourceLocation)
        return nil
    }
}

private func utf8(_ text: String) -> Data { Data(text.utf8) }

private let minimal = """
    <?xml version="1.0" encoding="utf-8"?>
    <d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/a.txt</d:href><d:propstat><d:prop>\
    <d:getcontentlength>3</d:getcontentlength></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
    """

extension Parsing {
    @Suite("MultistatusParser on hostile input")
    struct HostileMultistatusTests {
        @Test("the minimal well-formed document parses (control case)")
        func control() throws {
            let responses = try MultistatusParser.parse(utf8(minimal))
            #expect(responses.count == 1)
            #expect(responses[0].text(davNS, "getcontentlength") == "3")
        }

        @Test("namespaces are matched by URI, never by prefix")
        func prefixes() throws {
            let other = utf8("""
                <X:multistatus xmlns:X="DAV:" xmlns:d="urn:not-dav"><X:response><X:href>/a</X:href><X:propstat><X:prop>\
                <X:getetag>"e"</X:getetag><d:getetag>fake</d:getetag></X:prop><X:status>HTTP/1.1 200 OK</X:status></X:propstat>\
                </X:response></X:multistatus>
                """)
            let responses = try MultistatusParser.parse(other)
            #expect(responses.count == 1)
            #expect(responses[0].text(davNS, "getetag") == "\"e\"")
            #expect(responses[0].text("urn:not-dav", "getetag") == "fake")
            let defaultNamespace = utf8(
                #"<multistatus xmlns="DAV:"><response><href>/b</href><propstat><prop><getcontentlength>7</getcontentlength></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"#)
            #expect(try MultistatusParser.parse(defaultNamespace).first?.text(davNS, "getcontentlength") == "7")
        }

        @Test("malformed XML", arguments: [
            #"<d:multistatus xmlns:d="DAV:"><d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a</d:href></d:response>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a</d:hre></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a &bogus; b</d:href></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a < b</d:href></d:response></d:multistatus>"#,
            #"<x:multistatus><x:response/></x:multistatus>"#,
            "not xml at all",
            "<html><body>502 Bad Gateway</body></html>",
            #"{"multistatus": []}"#,
            "<",
            "\u{FEFF}",
        ])
        func malformed(_ text: String) {
            expectInvalid(utf8(text), "\(text.debugDescription)")
        }

        @Test("an empty body")
        func empty() {
            expectInvalid(Data())
            expectInvalid(utf8("   \n"))
        }

        @Test("a root that is not DAV:multistatus", arguments: [
            #"<d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>"#,
            #"<multistatus><response><href>/a</href></response></multistatus>"#,
            #"<d:multistatus xmlns:d="urn:other"><d:response><d:href>/a</d:href></d:response></d:multistatus>"#,
            #"<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:message>nope</s:message></d:error>"#,
            #"<?xml version="1.0"?><root/>"#,
        ])
        func wrongRoot(_ text: String) {
            expectInvalid(utf8(text), "\(text)")
        }

        @Test("a recording cut at any offset is refused", arguments: [
            "proppatch-207-403-424-oc10.xml", "propfind-depth0-webdav-file-nc18.xml", "report-search-files-oc10-docs.xml",
        ])
        func truncatedEverywhere(_ name: String) throws {
            let data = try Fixtures.data(name)
            let closing = try #require(data.range(of: Data("</d:multistatus>".utf8)))
            // Every cut before the end of the closing tag leaves an unfinished document.
            for offset in 0..<closing.upperBound {
                expectInvalid(data.prefix(offset), "\(name) cut at \(offset)")
            }
        }

        @Test("cuts mid-tag and mid-entity")
        func truncatedMidToken() throws {
            let data = try Fixtures.data("propfind-depth1-dav-files-oc10-admin.xml")
            let text = String(decoding: data, as: UTF8.self)
            var cuts: [Int] = []
            for marker in ["<d:hr", "&quo", "&quot;5a9f11", "<d:getcontentle", "</d:prop", "HTTP/1.1 2", "<oc:i", "</d:response", "</d:multistat"] {
                let range = try #require(text.range(of: marker), "\(marker)")
                cuts.append(text.utf8.distance(from: text.utf8.startIndex, to: range.upperBound))
            }
            #expect(cuts.count == 9)
            for cut in cuts { expectInvalid(data.prefix(cut), "cut at \(cut)") }
        }

        @Test("XXE: an external entity is refused and never read")
        func xxe() {
            let document = """
                <?xml version="1.0"?>
                <!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
                <d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/&x;</d:href><d:propstat><d:prop>\
                <d:displayname>&x;</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
                """
            let error = expectInvalid(utf8(document))
            #expect(!(error?.description.contains("root:") ?? false))
            #expect(!(error?.description.contains("/bin/") ?? false))
            // A parameter entity and a lower-case doctype as well.
            expectInvalid(utf8(#"<?xml version="1.0"?><!doctype d [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><d:multistatus xmlns:d="DAV:"/>"#))
            expectInvalid(utf8(#"<!DOCTYPE d SYSTEM "http://127.0.0.1:1/evil.dtd"><d:multistatus xmlns:d="DAV:"/>"#))
        }

        @Test("billion laughs is refused")
        func billionLaughs() {
            var document = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
            for level in 1...9 {
                let previous = level == 1 ? "lol" : "lol\(level - 1)"
                document += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
            }
            document += #"]><d:multistatus xmlns:d="DAV:"><d:response><d:href>/&lol9;</d:href></d:response></d:multistatus>"#
            expectInvalid(utf8(document))
        }

        @Test("an internal entity is refused")
        func internalEntity() {
            expectInvalid(utf8(
                #"<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x "hello">]><d:multistatus xmlns:d="DAV:"><d:response><d:href>/&x;</d:href></d:response></d:multistatus>"#
            ))
        }

        @Test("a DTD is refused whatever the document's encoding", arguments: ["UTF-16LE BOM", "UTF-16BE", "UTF-16BE BOM", "UTF-32LE", "UTF-7"])
        func dtdInOtherEncodings(_ encoding: String) {
            let dtd = #"<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#
            let body = #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/&x;</d:href></d:response></d:multistatus>"#
            var data = Data()
            switch encoding {
            case "UTF-16LE BOM":
                data = Data([0xFF, 0xFE]) + (#"<?xml version="1.0" encoding="UTF-16"?>"# + dtd + body).data(using: .utf16LittleEndian)!
            case "UTF-16BE":
                data = (#"<?xml version="1.0" encoding="UTF-16"?>"# + dtd + body).data(using: .utf16BigEndian)!
            case "UTF-16BE BOM":
                data = Data([0xFE, 0xFF]) + (#"<?xml version="1.0" encoding="UTF-16"?>"# + dtd + body).data(using: .utf16BigEndian)!
            case "UTF-32LE":
                data = Data([0xFF, 0xFE, 0, 0]) + (#"<?xml version="1.0" encoding="UTF-32"?>"# + dtd + body).data(using: .utf32LittleEndian)!
            default:
                // "<!DOCTYPE d [<!ENTITY x SYSTEM "…">]>" with every markup character written in UTF-7.
                data = utf8(#"<?xml version="1.0" encoding="UTF-7"?>+ADw-!DOCTYPE d +AFs-+ADw-!ENTITY x SYSTEM +ACI-file:///etc/passwd+ACI-+AD4-+AF0-+AD4-"# + body)
            }
            let error = expectInvalid(data, encoding)
            #expect(!(error?.description.contains("root:") ?? false))
        }

        @Test("a UTF-16 document without a DTD is refused too, as WebDAV answers are UTF-8")
        func utf16Plain() {
            let data = Data([0xFF, 0xFE]) + minimal.replacingOccurrences(of: "utf-8", with: "UTF-16").data(using: .utf16LittleEndian)!
            expectInvalid(data)
        }

        @Test("ISO-8859-1 documents still parse")
        func latin1() throws {
            var data = utf8(#"<?xml version="1.0" encoding="ISO-8859-1"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/caf"#)
            data.append(0xE9)
            data.append(utf8("</d:href></d:response></d:multistatus>"))
            #expect(try MultistatusParser.parse(data).first?.href == "/caf\u{E9}")
        }

        @Test("deeply nested elements are refused", arguments: [65, 1000, 5000])
        func deepNesting(_ depth: Int) {
            let inner = String(repeating: "<x:a>", count: depth) + String(repeating: "</x:a>", count: depth)
            let document = #"<d:multistatus xmlns:d="DAV:" xmlns:x="urn:x"><d:response><d:href>/a</d:href><d:propstat><d:prop>"#
                + inner + "</d:prop></d:propstat></d:response></d:multistatus>"
            expectInvalid(utf8(document), "depth \(depth)")
        }

        @Test("nesting up to the limit is accepted")
        func nestingAtLimit() throws {
            var limits = MultistatusParser.Limits()
            limits.maxDepth = 10
            // multistatus, response, propstat, prop, property = 5 levels, then 5 more inside.
            let inner = String(repeating: "<x:a>", count: 5) + String(repeating: "</x:a>", count: 5)
            let document = #"<d:multistatus xmlns:d="DAV:" xmlns:x="urn:x"><d:response><d:href>/a</d:href><d:propstat><d:prop><x:p>"#
                + inner + "</x:p></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
            #expect(try MultistatusParser.parse(utf8(document), limits: limits).count == 1)
            let deeper = document.replacingOccurrences(of: "<x:p>", with: "<x:p><x:b>").replacingOccurrences(of: "</x:p>", with: "</x:b></x:p>")
            expectInvalid(utf8(deeper), limits: limits)
        }

        @Test("text over the limit is refused")
        func hugeText() {
            let huge = String(repeating: "a", count: (1 << 20) + 1)
            expectInvalid(utf8(#"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/"# + huge + "</d:href></d:response></d:multistatus>"))
            let hugeProperty = #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a</d:href><d:propstat><d:prop><d:displayname>"#
                + huge + "</d:displayname></d:prop></d:propstat></d:response></d:multistatus>"
            expectInvalid(utf8(hugeProperty))
        }

        @Test("text exactly at a custom limit is accepted, one more is refused")
        func textLimitBoundary() throws {
            var limits = MultistatusParser.Limits()
            limits.maxTextLength = 100
            func document(_ length: Int) -> Data {
                utf8(#"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/"# + String(repeating: "b", count: length - 1)
                    + "</d:href></d:response></d:multistatus>")
            }
            #expect(try MultistatusParser.parse(document(100), limits: limits).first?.href.count == 100)
            expectInvalid(document(101), limits: limits)
            // Entities and CDATA count too.
            let entities = utf8(#"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/"# + String(repeating: "&amp;", count: 100)
                + "</d:href></d:response></d:multistatus>")
            expectInvalid(entities, limits: limits)
            let cdata = utf8(#"<d:multistatus xmlns:d="DAV:"><d:response><d:href><![CDATA[/"# + String(repeating: "c", count: 100)
                + "]]></d:href></d:response></d:multistatus>")
            expectInvalid(cdata, limits: limits)
        }

        @Test("more responses than the limit are refused")
        func tooManyResponses() throws {
            var limits = MultistatusParser.Limits()
            limits.maxResponses = 2
            let one = "<d:response><d:href>/a</d:href></d:response>"
            let two = utf8(#"<d:multistatus xmlns:d="DAV:">"# + one + one + "</d:multistatus>")
            #expect(try MultistatusParser.parse(two, limits: limits).count == 2)
            expectInvalid(utf8(#"<d:multistatus xmlns:d="DAV:">"# + one + one + one + "</d:multistatus>"), limits: limits)
        }

        @Test("a response without an href is delivered with an empty href (the listing drops or names that one entry)", arguments: [
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:propstat><d:prop><d:getetag>"e"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href></d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>   </d:href></d:response></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/ok</d:href></d:response><d:response/></d:multistatus>"#,
            #"<d:multistatus xmlns:d="DAV:"><d:response><x:href xmlns:x="urn:x">/a</x:href></d:response></d:multistatus>"#,
        ])
        func missingHref(_ text: String) throws {
            let responses = try MultistatusParser.parse(utf8(text))
            #expect(responses.contains { $0.href.isEmpty }, "\(text)")
        }

        @Test("bytes that are not UTF-8 are refused", arguments: [[0xFF, 0xFE, 0x41], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] as [[UInt8]])
        func notUTF8(_ bytes: [UInt8]) {
            var data = utf8(#"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/a"#)
            data.append(contentsOf: bytes)
            data.append(utf8("</d:href></d:response></d:multistatus>"))
            expectInvalid(data, "\(bytes)")
        }

        @Test("random bytes never crash the parser")
        func randomBytes() throws {
            var generator = SplitMix64(seed: 42)
            let base = try Fixtures.data("propfind-depth0-webdav-folder-nc18.xml")
            for round in 0..<300 {
                var data = base
                // Flip a few bytes of a real answer.
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let index = Int(generator.next() % UInt64(data.count))
                    data[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                do {
                    _ = try MultistatusParser.parse(data)
                } catch let error as ProviderError {
                    #expect(error.code == .invalidResponse, "round \(round): \(error)")
                } catch {
                    Issue.record("round \(round): a non-ProviderError \(error)")
                }
            }
        }
    }
}
