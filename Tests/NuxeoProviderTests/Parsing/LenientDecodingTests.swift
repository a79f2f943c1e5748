import Foundation
import ProviderAPI
import Testing
@testable import NuxeoProvider
import HTTPProviderKit

extension Parsing {
    @Suite("Lenient decoding") struct LenientDecodingTests {
        // 2014-06-06T10:23:59Z
        static let base = 1_402_050_239.0

        static let dateCases: [(String, Double)] = [
            ("2014-06-06T10:23:59Z", Self.base),
            ("2014-06-06T10:23:59.76Z", Self.base + 0.76),
            ("2014-06-06T10:23:59.760Z", Self.base + 0.76),
            ("2014-06-06T10:23:59.7Z", Self.base + 0.7),
            ("2014-06-06T10:23:59.123456789Z", Self.base + 0.123456789),
            ("2014-06-06T11:23:59.000+01:00", Self.base),
            ("2014-06-06T11:23:59.000+0100", Self.base),
            ("2014-06-06T05:23:59-05:00", Self.base),
            ("2014-06-06 10:23:59.760", Self.base + 0.76),
            ("2014-06-06T10:23:59", Self.base),
            ("2014-06-06T10:23Z", Self.base - 59),
            ("2014-06-06", 1_402_012_800.0),
            ("1402050239760", Self.base + 0.76),
                ]

        @Test("dates: 0–9 fraction digits, Z, offsets, space separator, bare date, epoch millis", arguments: dateCases)
        func dates(text: String, expected: Double) {
            #expect(close(NuxeoDateParser.date(from: text), Date(timeIntervalSince1970: expected)), "\(text)")
        }

        @Test("dates: numbers are epoch milliseconds; junk is nil, not a crash")
        func dateEdges() {
            #expect(NuxeoDateParser.date(from: JSONValue.integer(1_681_875_652_000)) == Date(timeIntervalSince1970: 1_681_875_652))
            #expect(NuxeoDateParser.date(from: JSONValue.double(1_681_875_652_000)) == Date(timeIntervalSince1970: 1_681_875_652))
            for junk in ["", "yesterday", "2014-13-01", "2014-06-06T25:00:00Z", "2014-06-06T10:23:59.Z", "2014-06-06T10:23:59Zjunk", "2014-06-06X10"] {
                #expect(NuxeoDateParser.date(from: junk) == nil, "\(junk)")
            }
            #expect(NuxeoDateParser.date(from: JSONValue.null) == nil)
            #expect(NuxeoDateParser.date(from: JSONValue.bool(true)) == nil)
            #expect(NuxeoDateParser.string(from: Date(timeIntervalSince1970: Self.base + 0.76)) == "2014-06-06T10:23:59.760Z")
        }

        @Test("dates: white space around a date is trimmed as Foundation trims it, only where an end may be white space")
        func dateTrimming() {
            let date = "2014-06-06T10:23:59Z"
            for text in [" \(date)", "\(date)\t", "\u{A0}\(date)\u{3000}", "\u{2003}1402050239760 ", " \(date) ", "\u{200B}\(date)"] {
                let trimmed = NuxeoDateParser.date(from: text.trimmingCharacters(in: .whitespaces))
                #expect(trimmed != nil && NuxeoDateParser.date(from: text) == trimmed, "\(text.debugDescription)")
            }
            for junk in ["\n\(date)", "\(date)\r", "\u{B}\(date)", "\u{85}\(date)", "\(date)\u{301}", "1402050239760\u{FF10}", "\u{FF11}402050239760", "12345678"] {
                #expect(NuxeoDateParser.date(from: junk) == nil, "\(junk.debugDescription)")
            }
        }

        @Test("numbers and booleans in strings: white space at the ends is trimmed as Foundation trims it")
        func numberTrimming() {
            for text in ["588", " 588", "588\t", "\u{A0}588\u{3000}", "\u{200B}588", "\n588", "588\r", "5 88", "58\u{301}8", "", " ", "1e3", " 2.5 ", "\u{2003}true", "FALSE "] {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                let value = JSONValue.string(text)
                let expected = Int64(trimmed) ?? Double(trimmed).flatMap { JSONValue.double($0).int64Value }
                #expect(value.int64Value == expected, "\(text.debugDescription)")
                #expect(value.doubleValue == Double(trimmed), "\(text.debugDescription)")
                #expect(value.boolValue == JSONValue.string(trimmed).boolValue, "\(text.debugDescription)")
            }
        }

        @Test("a document with numbers and booleans as strings, odd dates and unknown keys")
        func stringlyDocument() throws {
            let json = """
            {"entity-type":"document","uid":"u1","isCheckedOut":"true","isTrashed":"false","isVersion":0,
             "changeToken":1444731706120,"lastModified":1444731706120,"lockCreated":"2015-03-18T17:34:51.000+01:00",
             "brandNewKey":{"deep":[1,2,3]},"facets":["Folderish"],
             "properties":{"file:content":{"length":"1025580","digest":null,"mime-type":null}},
             "contextParameters":{"hasFolderishChild":true}}
            """
            let document = try NuxeoEntityRegistry.standard.decode(NuxeoDocument.self, from: Data(json.utf8))
            #expect(document.isCheckedOut == true)
            #expect(document.isTrashed == false)
            #expect(document.isVersion == false)
            #expect(document.changeToken == "1444731706120")
            #expect(document.lastModified == Date(timeIntervalSince1970: 1_444_731_706.12))
            #expect(document.lockCreated == Date(timeIntervalSince1970: 1_426_696_491))
            #expect(document.blob()?.length == 1_025_580)
            #expect(document.blob()?.verifiableDigest == nil)
            #expect(document.contextParameters["hasFolderishChild"] == .bool(true))
            #expect(document.path == nil && document.type == nil && document.state == nil)
        }

        @Test("a minimal document: only uid; an empty-array properties is read as empty")
        func minimalDocument() throws {
            let document = try NuxeoDocument(nuxeoJSON: NuxeoJSON.parse(Data(#"{"uid":"x","properties":[]}"#.utf8)))
            #expect(document.uid == "x")
            #expect(document.properties.isEmpty)
            #expect(document.facets.isEmpty)
        }

        @Test("resultsCount -2: unknown size, paging follows isNextPageAvailable and full pages")
        func unknownResultsCount() throws {
            func page(count: Int, next: Bool, pageSize: Int = 2) throws -> NuxeoDocumentList {
                let entries = (0..<count).map { #"{"entity-type":"document","uid":"d\#($0)"}"# }.joined(separator: ",")
                let json = """
                {"entity-type":"documents","isPaginable":true,"resultsCount":-2,"pageSize":\(pageSize),"maxPageSize":"1000",
                 "currentPageSize":\(count),"currentPageIndex":3,"numberOfPages":0,"isNextPageAvailable":\(next),"entries":[\(entries)]}
                """
                return try NuxeoEntityRegistry.standard.decode(NuxeoDocumentList.self, from: Data(json.utf8))
            }
            let full = try page(count: 2, next: true)
            #expect(full.resultsCount == -2)
            #expect(full.knownResultsCount == nil)
            #expect(full.numberOfPages == 0)
            #expect(full.maxPageSize == 1000)
            #expect(full.hasNextPage)
            #expect(try page(count: 1, next: true).hasNextPage == false)   // short page
            #expect(try page(count: 0, next: true).hasNextPage == false)   // empty page
            #expect(try page(count: 2, next: false).hasNextPage == false)  // -2 and no flag: stop
        }

        @Test("a non-paginable list has only entries")
        func nonPaginable() throws {
            let list = try NuxeoDocumentList(nuxeoJSON: NuxeoJSON.parse(Data(#"{"entity-type":"documents","entries":[{"uid":"a"}],"totalSize":1}"#.utf8)))
            #expect(list.entries.count == 1)
            #expect(list.knownResultsCount == 1)
            #expect(list.hasNextPage == false)
        }

        @Test("an unknown entity-type is kept whole")
        func unknownEntityType() throws {
            let entity = try NuxeoEntityRegistry.standard.decode(Data(#"{"entity-type":"workflow","id":"w1","state":"running"}"#.utf8))
            guard case .unknown(let type, let json) = entity else {
                Issue.record("expected unknown")
                return
            }
            #expect(type == "workflow")
            #expect(json["id"] == .string("w1"))
            #expect(entity.entityType == "workflow")
            #expect(entity.document == nil)
        }

        @Test("malformed, truncated and non-JSON bodies are invalidResponse", arguments: [
            "", "{", "{\"entity-type\":\"document\",\"uid\":\"x\"", "<html><body>401</body></html>", "{\"a\":}", "nul", "[1,2,",
        ])
        func malformed(body: String) {
            #expect(throws: ProviderError.self) { try NuxeoEntityRegistry.standard.decode(Data(body.utf8)) }
            do {
                _ = try NuxeoEntityRegistry.standard.decode(Data(body.utf8))
            } catch let error as ProviderError {
                #expect(error.code == .invalidResponse)
            } catch {
                Issue.record("not a ProviderError: \(error)")
            }
        }

        @Test("wrong types are invalidResponse, not a crash", arguments: [
            #"{"entity-type":"document"}"#,
            #"{"entity-type":"document","uid":{"a":1}}"#,
            #"{"entity-type":"document","uid":"x","facets":"Folderish"}"#,
            #"{"entity-type":"document","uid":"x","facets":[1]}"#,
            #"{"entity-type":"document","uid":"x","properties":"dc:title"}"#,
            #"{"entity-type":"document","uid":"x","isCheckedOut":"maybe"}"#,
            #"{"entity-type":"document","uid":"x","path":["a"]}"#,
            #"{"entity-type":"document","uid":"x","schemas":[1]}"#,
            #"{"entity-type":"documents","entries":{}}"#,
            #"{"entity-type":"documents","entries":[{"entity-type":"document"}]}"#,
            #"{"entity-type":"documents","resultsCount":"many","entries":[]}"#,
            #"{"entity-type":"documents","entries":[[]]}"#,
            #"{"entity-type":"exception","status":"bad"}"#,
            #"{"entity-type":"login"}"#,
            #"{"entity-type":"user","id":"x","extendedGroups":[{"label":"no name"}]}"#,
            #"{"entity-type":"logEntry","category":"x"}"#,
            #"{"entity-type":"logEntries","entries":[1]}"#,
            #"[{"eventId":"x"},{"eventId":[]}]"#,
        ])
        func wrongTypes(body: String) {
            do {
                let entity = try NuxeoEntityRegistry.standard.decode(Data(body.utf8))
                Issue.record("decoded \(entity) from \(body)")
            } catch let error as ProviderError {
                #expect(error.code == .invalidResponse)
            } catch {
                Issue.record("not a ProviderError: \(error)")
            }
        }

        @Test("a typed decode of the wrong entity type is invalidResponse")
        func wrongEntityForType() {
            do {
                _ = try NuxeoEntityRegistry.standard.decode(NuxeoDocument.self, from: Data(#"{"entity-type":"documents","entries":[]}"#.utf8))
                Issue.record("decoded a list as a document")
            } catch let error as ProviderError {
                #expect(error.code == .invalidResponse)
            } catch {
                Issue.record("not a ProviderError: \(error)")
            }
        }

        @Test("deeply nested JSON is refused without crashing; moderate nesting is fine")
        func deepNesting() throws {
            let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            #expect(throws: ProviderError.self) { try NuxeoEntityRegistry.standard.decode(Data(deep.utf8)) }
            let deepObject = String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)
            #expect(throws: ProviderError.self) { try NuxeoJSON.parse(Data(deepObject.utf8)) }
            let moderate = #"{"entity-type":"document","uid":"x","properties":{"p":"# + String(repeating: "[", count: 50)
                + String(repeating: "]", count: 50) + "}}"
            let document = try NuxeoEntityRegistry.standard.decode(NuxeoDocument.self, from: Data(moderate.utf8))
            #expect(document.properties["p"] != nil)
            // exactly the limit decodes; one more level is refused
            let limit = NuxeoJSON.maximumDepth
            let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
            #expect(try NuxeoJSON.parse(Data(atLimit.utf8)).arrayValue?.count == 1)
            let overLimit = "[" + atLimit + "]"
            #expect(throws: ProviderError.self) { try NuxeoJSON.parse(Data(overLimit.utf8)) }
            // brackets inside strings do not count
            let quoted = #"{"uid":"x","title":""# + String(repeating: "[{", count: 1_000) + #""}"#
            #expect(try NuxeoDocument(nuxeoJSON: NuxeoJSON.parse(Data(quoted.utf8))).title?.count == 2_000)
        }

        @Test("JSONValue reads numbers and booleans from strings, and round-trips through Codable")
        func jsonValueAccessors() throws {
            #expect(JSONValue.string("42").int64Value == 42)
            #expect(JSONValue.string(" 42 ").intValue == 42)
            #expect(JSONValue.string("4.0").int64Value == 4)
            #expect(JSONValue.string("4.5").int64Value == nil)
            #expect(JSONValue.double(1e300).int64Value == nil)
            #expect(JSONValue.string("1.5").doubleValue == 1.5)
            #expect(JSONValue.string("TRUE").boolValue == true)
            #expect(JSONValue.integer(0).boolValue == false)
            #expect(JSONValue.integer(2).boolValue == nil)
            #expect(JSONValue.array([.string("a"), .integer(1)]).stringArrayValue == ["a"])
            let value: JSONValue = .object([
                "s": .string("é\n\"'\\"), "i": .integer(-3), "d": .double(1.456), "b": .bool(true), "n": .null,
                "a": .array([.integer(1), .object([:])]),
            ])
            let decoded = try NuxeoJSON.parse(try NuxeoJSON.encode(value))
            #expect(decoded == value)
        }
    }
}
