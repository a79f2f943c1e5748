import Foundation
import NIOCore
import ProviderAPI
import ProviderConformance
import StrataTestSupport
import Testing
import HTTPProviderKit

/// `JSONValue` as `JSONDecoder` produced it before ``JSONByteReader``: the original order of
/// tries in `init(from:)` (boolean, integer, double, string, array, object), kept here so the
/// reader and the reordered `init(from:)` are both compared with what callers used to get.
private struct LegacyJSONValue: Decodable {
    var value: JSONValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            value = .integer(integer)
        } else if let double = try? container.decode(Double.self) {
            value = .double(double)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([LegacyJSONValue].self) {
            value = .array(array.map(\.value))
        } else if let object = try? container.decode([String: LegacyJSONValue].self) {
            value = .object(object.mapValues(\.value))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    static func decode(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(LegacyJSONValue.self, from: data).value
    }
}

/// What the reader makes of `data`: the value, or the message of its `invalidResponse` error.
private func read(_ data: Data, maximumDepth: Int = JSONByteReader.defaultMaximumDepth) -> Result<JSONValue, ProviderError> {
    do {
        return .success(try JSONByteReader.value(from: data, maximumDepth: maximumDepth))
    } catch let error as ProviderError {
        return .failure(error)
    } catch {
        return .failure(ProviderError(.unsupported, "unexpected error type \(type(of: error))"))
    }
}

private func read(_ text: String) -> Result<JSONValue, ProviderError> { read(Data(text.utf8)) }

/// Expects the reader to refuse `data` as `invalidResponse` with a "malformed JSON at byte N" message.
private func expectRefused(_ data: Data, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
    switch read(data) {
    case .success(let value):
        Issue.record("\(comment): accepted as \(value)", sourceLocation: sourceLocation)
    case .failure(let error):
        #expect(error.code == .invalidResponse, "\(comment)", sourceLocation: sourceLocation)
        #expect(error.message?.hasPrefix("malformed JSON at byte ") == true, "\(comment): \(error)", sourceLocation: sourceLocation)
    }
}

private func expectRefused(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectRefused(Data(text.utf8), text.debugDescription, sourceLocation: sourceLocation)
}

/// Every recorded server answer in `Tests/Fixtures` (nuxeo, nextcloud, pydio), and the
/// bodies of the `.http` recordings, by name.
let fixtureDocuments: [(name: String, data: Data)] = {
    let root = TestFixtures.root.standardizedFileURL
    var documents: [(String, Data)] = []
    let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = files?.nextObject() as? URL {
        guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
              let data = try? Data(contentsOf: url)
        else { continue }
        let name = String(url.path.dropFirst(root.path.count))
        documents.append((name, data))
        if url.pathExtension == "http", let blank = data.firstRange(of: Data("\n\n".utf8)) {
            documents.append((name + " (body)", data[blank.upperBound...]))
        }
    }
    return documents.sorted { $0.0 < $1.0 }
}()

@Suite("JSONByteReader")
struct JSONByteReaderTests {
    @Test("every recorded answer reads exactly as JSONDecoder read it, and the reordered init(from:) agrees")
    func fixturesDifferential() throws {
        var compared = 0
        var names: [String] = []
        for (name, data) in fixtureDocuments {
            let legacy = LegacyJSONValue.decode(data)
            let current = try? JSONDecoder().decode(JSONValue.self, from: data)
            #expect(current == legacy, "init(from:) changed the value of \(name)")
            switch (read(data), legacy) {
            case (.success(let value), let legacy?):
                #expect(value == legacy, "\(name)")
                compared += 1
                names.append(name)
            case (.success(let value), nil):
                Issue.record("\(name): the reader accepts what JSONDecoder refused: \(value)")
            case (.failure(let error), let legacy?):
                Issue.record("\(name): the reader refuses what JSONDecoder read as \(legacy): \(error)")
            case (.failure, nil):
                break
            }
        }
        // nuxeo (php-client, nuxeo-drive, nuxeo-server), the nextcloud OCS and status answers, pydio's JSON bodies
        #expect(compared >= 31, "only \(compared) JSON documents compared: \(names)")
        #expect(names.contains { $0.hasPrefix("/nuxeo/") } && names.contains { $0.hasPrefix("/nextcloud/") })
        #expect(fixtureDocuments.count > 150)
    }

    @Test("numbers: integers and doubles exactly as JSONDecoder told them apart", arguments: [
        "0", "-0", "1", "-1", "42", "1.0", "1e2", "1E2", "1e+2", "-0.0", "0.5", "-1.5e0", "1.5e3", "2.5E-3", "100e-2",
        "1e-400", "2.4e-324", "4.9e-324", "1e18", "-1e18", "1e19", "1e308", "1.7976931348623157e308",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "9223372036854775807.0", "-9223372036854775808.0", "-9223372036854775809.0", "9223372036854775806.5",
        "4611686018427387904.5", "1.00000000000000000001", "1.9999999999999999", "12345678901234567.0",
        "12345678901234567", "123456789012345678901", "-123456789012345678901", "9007199254740993.7", "1e16",
        "1.5e16", "9.223372036854775807e18", "0e5", "0.0", "-0.0e-5", "5e-1", "0.1e1", "3.141592653589793",
        "-2.2250738585072014e-308", "123456789012345678901234567890", "1" + String(repeating: "0", count: 300),
        "1E400", "-1e400", "1e309", "1.7976931348623159e308", "1" + String(repeating: "0", count: 400),
    ])
    func numbers(_ text: String) {
        let legacy = LegacyJSONValue.decode(Data(text.utf8))
        switch read(text) {
        case .success(let value):
            #expect(value == legacy, "\(text)")
            if case .double(let double) = value, case .double(let old)? = legacy {
                #expect(double.bitPattern == old.bitPattern, "\(text)")
            }
        case .failure(let error):
            #expect(legacy == nil, "\(text): refused (\(error)) but JSONDecoder read \(String(describing: legacy))")
            #expect(error.code == .invalidResponse)
        }
        // the same inside a document
        let array = "[\(text), {\"n\": \(text)}]"
        if let legacy = LegacyJSONValue.decode(Data(array.utf8)) {
            #expect((try? read(array).get()) == legacy, "\(array)")
        }
    }

    @Test("strings: every escape, surrogate pairs, raw UTF-8")
    func strings() throws {
        let text = #"["\"\\\/\b\f\n\r\t", "\u00e9\u00E9é", "\uD834\uDD1E 𝄞", "\u0000", "a\u007Fb", "日本語", ""]"#
        let value = try JSONByteReader.value(from: Data(text.utf8))
        #expect(value == ["\"\\/\u{08}\u{0C}\n\r\t", "ééé", "𝄞 𝄞", "\u{0}", "a\u{7F}b", "日本語", ""])
        #expect(value == LegacyJSONValue.decode(Data(text.utf8)))
        // a long string with an escape at the end, and one with an escape first
        let long = String(repeating: "abcdé", count: 2_000)
        #expect(try JSONByteReader.value(from: Data(("\"" + long + "\\n\"").utf8)) == .string(long + "\n"))
        #expect(try JSONByteReader.value(from: Data(("\"\\t" + long + "\"").utf8)) == .string("\t" + long))
    }

    @Test("a repeated member name keeps its first value, as JSONDecoder did; member names are unescaped")
    func duplicateKeys() throws {
        let text = #"{"a": 1, "b": {"x": [1], "x": "second"}, "a": 2, "\u0061": 3, "c": null}"#
        let value = try JSONByteReader.value(from: Data(text.utf8))
        #expect(value == ["a": 1, "b": ["x": [1]], "c": .null])
        #expect(value == LegacyJSONValue.decode(Data(text.utf8)))
    }

    @Test("whitespace, literals, top-level scalars and the UTF-8 byte order mark")
    func layout() throws {
        #expect(try JSONByteReader.value(from: Data(" \t\r\n{ \"a\" :\n[ true ,false , null ] }\n ".utf8)) == ["a": [true, false, .null]])
        #expect(try JSONByteReader.value(from: Data("\"top\"".utf8)) == "top")
        #expect(try JSONByteReader.value(from: Data("7".utf8)) == 7)
        #expect(try JSONByteReader.value(from: Data("null".utf8)) == .null)
        #expect(try JSONByteReader.value(from: Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == [1])
        #expect(try JSONByteReader.value(from: Data("[]".utf8)) == [])
        #expect(try JSONByteReader.value(from: Data("{}".utf8)) == .object([:]))
        var buffer = ByteBuffer(string: "xx{\"k\":\"v\"}")
        buffer.moveReaderIndex(forwardBy: 2)
        #expect(try JSONByteReader.value(from: buffer) == ["k": "v"])
        #expect(try JSONValue(json: Data(#"{"ocs":{"meta":{"statuscode":100}}}"#.utf8))["ocs"]?["meta"]?["statuscode"] == 100)
    }

    @Test("nesting: 512 levels read (JSONDecoder's limit), 513 and 100,000 are refused, a caller's lower limit holds")
    func depth() throws {
        func nested(_ depth: Int) -> Data { Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }
        #expect(throws: Never.self) { try JSONByteReader.value(from: nested(512)) }
        expectRefused(nested(513), "513 levels")
        expectRefused(nested(100_000), "100,000 levels")
        expectRefused(Data(String(repeating: "[", count: 100_000).utf8), "100,000 unclosed levels")
        expectRefused(Data((String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)).utf8), "objects")
        #expect(throws: Never.self) { try JSONByteReader.value(from: nested(96), maximumDepth: 96) }
        if case .failure(let error) = read(nested(97), maximumDepth: 96) {
            #expect(error.message?.contains("nesting deeper than 96 levels") == true)
        } else {
            Issue.record("97 levels accepted with a limit of 96")
        }
        // brackets inside strings do not count
        let quoted = Data(("[\"" + String(repeating: "[{", count: 1_000) + "\"]").utf8)
        #expect(try JSONByteReader.value(from: quoted, maximumDepth: 1) == [.string(String(repeating: "[{", count: 1_000))])
    }

    @Test("hostile and malformed documents are refused as invalidResponse", arguments: [
        "", " ", "\n\t", "tru", "nul", "falsey", "True", "NaN", "Infinity", "-Infinity", "+1", ".5", "1.", "1.e5", "01", "-01",
        "00", "-", "1e", "1e+", "--1", "0x10", "1_000", "[1,]", "{\"a\":1,}", "[,1]", "[1 2]", "{\"a\":1 \"b\":2}",
        "{\"a\" 1}", "{a:1}", "{'a':1}", "{1:2}", "{\"a\"}", "[1", "[1,", "{\"a\":", "{\"a\"", "{", "[", "]", "}", "\"abc",
        "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\U0041\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800x\"", "\"\\ud800\\u0041\"",
        "\"\\uDFFF\\uD800\"", "\"\\ud800\\", "\"\\", "[1] x", "[1]]", "{} {}", "1 2", "\"a\" \"b\"", "[1]\u{0C}", "/* c */ 1",
        "[1] // c", "1E400", "-1e400", "\"tab\there\"", "\"new\nline\"", "\u{0B}1",
    ])
    func malformed(_ text: String) {
        expectRefused(text)
        #expect(LegacyJSONValue.decode(Data(text.utf8)) == nil || text.contains(",]") || text.contains(",}"),
                "JSONDecoder read \(text.debugDescription): the list should only hold what it refused, or trailing commas")
    }

    @Test("bytes that are not UTF-8, and UTF-16 or UTF-32 documents, are refused; the byte offset is reported")
    func encoding() throws {
        let cases: [(String, [UInt8])] = [
            ("a lone continuation byte", [0x80]), ("0xFF", [0xFF]), ("0xC0 0x80 (overlong NUL)", [0xC0, 0x80]),
            ("overlong slash", [0xC1, 0xAF]), ("overlong 3-byte", [0xE0, 0x80, 0xAF]), ("UTF-8 encoded surrogate", [0xED, 0xA0, 0x80]),
            ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]), ("0xF5", [0xF5, 0x80, 0x80, 0x80]), ("truncated 3-byte", [0xE6, 0x97]),
            ("truncated 4-byte", [0xF0, 0x9D, 0x84]), ("a lead byte then ASCII", [0xC3, 0x41]),
        ]
        for (label, bad) in cases {
            let document = Data(Array("[\"ok\",\"ab".utf8) + bad + Array("cd\"]".utf8))
            expectRefused(document, label)
            #expect(LegacyJSONValue.decode(document) == nil, "\(label)")
            if case .failure(let error) = read(document) {
                #expect(error.message?.hasPrefix("malformed JSON at byte 9:") == true, "\(label): \(error)")
            }
            // the same bytes in a string with an escape, and in a member name
            expectRefused(Data(Array("[\"\\n".utf8) + bad + Array("\"]".utf8)), label + " after an escape")
            expectRefused(Data(Array("{\"".utf8) + bad + Array("\":1}".utf8)), label + " in a name")
            // outside a string
            expectRefused(Data(Array("[1,".utf8) + bad + Array("]".utf8)), label + " outside a string")
        }
        expectRefused(Data([0xFE, 0xFF, 0, 0x5B, 0, 0x31, 0, 0x5D]), "UTF-16BE with a byte order mark")
        expectRefused(Data([0xFF, 0xFE, 0x5B, 0, 0x31, 0, 0x5D, 0]), "UTF-16LE with a byte order mark")
        expectRefused(Data([0, 0x5B, 0, 0x31, 0, 0x5D]), "UTF-16BE")
        expectRefused(Data([0x5B, 0, 0x31, 0, 0x5D, 0]), "UTF-16LE")
        expectRefused(Data([0xEF, 0xBB, 0xBF]), "a byte order mark alone")
        expectRefused(Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31]), "two byte order marks")
        expectRefused(Data(Array("[1]".utf8) + [0]), "a trailing NUL")
        expectRefused(Data(Array("[\"a".utf8) + [0x01] + Array("\"]".utf8)), "a control character in a string")
        if case .failure(let error) = read("[1, 2, x]") {
            #expect(error.message == "malformed JSON at byte 7: unexpected 'x' where a value was expected")
        } else {
            Issue.record("[1, 2, x] accepted")
        }
    }

    @Test("every truncation of a recorded Nuxeo answer is refused, never a crash")
    func truncations() throws {
        let documents = fixtureDocuments.filter { $0.name.hasPrefix("/nuxeo/") && $0.name.hasSuffix(".json") }
        #expect(documents.count >= 10)
        for (name, data) in documents.prefix(4) {
            let bytes = Array(data)
            let end = bytes.lastIndex { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "]") } ?? 0
            for length in stride(from: 0, to: end, by: max(1, end / 400)) {
                expectRefused(Data(bytes[..<length]), "\(name) cut at \(length)")
            }
        }
    }

    @Test("mutated recorded answers: whatever the reader accepts, JSONDecoder read the same; what it refuses, JSONDecoder refused (or had a trailing comma)")
    func mutations() throws {
        var random = SplitMix64(seed: 0x5EED_0006)
        let documents = fixtureDocuments.filter { $0.name.hasSuffix(".json") && $0.data.count < 8_000 }
        #expect(documents.count >= 10)
        let alphabet = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var accepted = 0
        for round in 0..<1_500 {
            var bytes = Array(documents[round % documents.count].data)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
                case 1: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
                default: if bytes.count > 1 { bytes.remove(at: index) }
                }
            }
            let data = Data(bytes)
            let legacy = LegacyJSONValue.decode(data)
            switch read(data) {
            case .success(let value):
                accepted += 1
                #expect(value == legacy, "round \(round)")
            case .failure(let error):
                if legacy != nil {
                    let tolerated = error.message?.contains("trailing comma") == true || error.message?.contains("not in UTF-8") == true
                    #expect(tolerated, "round \(round): refused (\(error)) what JSONDecoder read")
                }
            }
        }
        // some mutations (in strings, or digits in numbers) keep the document valid
        #expect(accepted > 50)
    }

    @Test("JSONValue still decodes inside other Codable types, from JSON and property lists, with the same values")
    func codable() throws {
        struct Envelope: Codable, Equatable { var name: String; var payload: JSONValue }
        let envelope = Envelope(name: "e", payload: ["s": "1", "i": 1, "d": 1.5, "b": true, "n": .null, "a": [1, "x", [false]], "o": ["k": 2.0]])
        let json = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: json) == Envelope(
            name: "e", payload: ["s": "1", "i": 1, "d": 1.5, "b": true, "n": .null, "a": [1, "x", [false]], "o": ["k": 2]]))
        let plistEnvelope = Envelope(name: "p", payload: ["s": "true", "i": 1, "d": 1.5, "b": true, "a": [1, "x"], "o": ["k": "v"]])
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let plist = try encoder.encode(plistEnvelope)
            #expect(try PropertyListDecoder().decode(Envelope.self, from: plist) == plistEnvelope, "\(format)")
        }
        #expect(try JSONValue(encoding: envelope) == JSONValue(json: json))
    }
}
