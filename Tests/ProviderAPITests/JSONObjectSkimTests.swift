import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

/// The skim the whole read implies: the top-level members of an object, arrays and objects by
/// their counts (names inside nested objects are unique here); `nil` for anything else.
private func skimOf(_ value: JSONValue) -> JSONObjectSkim? {
    guard case .object(let members) = value else { return nil }
    return JSONObjectSkim(members: members.mapValues { member in
        switch member {
        case .array(let elements): return .array(count: elements.count)
        case .object(let nested): return .object(count: nested.count)
        default: return .value(member)
        }
    })
}

private func skimmed(_ text: String) -> JSONObjectSkim? {
    JSONByteReader.skimObject(from: ByteBuffer(string: text))
}

@Suite("JSONObjectSkim")
struct JSONObjectSkimTests {
    @Test("every recorded object skims to its top-level members as the whole read has them; every other answer skims to nothing")
    func fixtures() {
        var objects = 0
        for (name, data) in fixtureDocuments {
            guard let value = try? JSONByteReader.value(from: data) else { continue }
            let skim = JSONByteReader.skimObject(from: ByteBuffer(bytes: data))
            #expect(skim == skimOf(value), "\(name)")
            if skim != nil { objects += 1 }
        }
        // The Nuxeo entities (documents, document, exception, login, user…) and Nextcloud's OCS answers.
        #expect(objects >= 25, "only \(objects) objects skimmed")
    }

    @Test("brackets, quotes and backslashes inside strings do not end or open containers")
    func stringsInsideContainers() throws {
        let text = #"""
            { "entries" : [ "]", "[", "\"]", "a\\", {"k": "}{"}, [ ], { }, "\\\"" ] ,
              "page" : {"x": [1, 2, {"y": "]]"}], "z": null}, "next": true, "empty": [ ], "none": {} }
            """#
        let skim = try #require(skimmed(text))
        #expect(skim["entries"] == .array(count: 8))
        #expect(skim["page"] == .object(count: 2))
        #expect(skim["next"] == .value(.bool(true)))
        #expect(skim["empty"] == .array(count: 0))
        #expect(skim["none"] == .object(count: 0))
        #expect(skim.values == ["next": .bool(true)])
        #expect(skim == skimOf(try JSONByteReader.value(from: ByteBuffer(string: text))))
    }

    @Test("top-level values are read as strictly as the whole read: escapes, numbers, a byte order mark")
    func topLevelValues() throws {
        let skim = try #require(JSONByteReader.skimObject(from: ByteBuffer(bytes: [0xEF, 0xBB, 0xBF] + Array(
            #"{"a\u00e9": "x\ny", "n": -12, "d": 1.5, "big": 1e2, "s": "12", "z": null, "f": false}"#.utf8))))
        #expect(skim.values == ["a\u{e9}": .string("x\ny"), "n": .integer(-12), "d": .double(1.5), "big": .integer(100),
                                "s": .string("12"), "z": .null, "f": .bool(false)])
        #expect(skimmed("{}") == JSONObjectSkim(members: [:]))
    }

    @Test("a repeated name keeps its first value, as the whole read does")
    func repeatedNames() throws {
        let text = #"{"a": [1, 2], "a": 3, "b": 4, "b": [5]}"#
        #expect(skimmed(text)?.members == ["a": .array(count: 2), "b": .value(.integer(4))])
        #expect(skimmed(text) == skimOf(try JSONByteReader.value(from: ByteBuffer(string: text))))
    }

    @Test("what is not one object, or breaks at its top level, skims to nothing", arguments: [
        "", "   ", "[1, 2]", "1", "\"text\"", "null", #"{"a": 1"#, #"{"a": [1, 2"#, #"{"a": "x"#, #"{"a": 1} x"#,
        #"{"a": 1,}"#, #"{"a" 1}"#, #"{a: 1}"#, #"{"a": tru}"#, #"{"a": 01}"#, #"{"a": "\q"}"#, #"{"a": [1] "b": 2}"#,
        #"{"a": {"b": "\"}"#, "{\"a\": \"\u{01}\"}",
    ])
    func refused(_ text: String) {
        #expect(skimmed(text) == nil)
    }

    @Test("UTF-16 and nesting beyond the limit skim to nothing")
    func refusedEncodingAndDepth() {
        #expect(JSONByteReader.skimObject(from: ByteBuffer(bytes: [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])) == nil)
        let deep = "{\"a\": " + String(repeating: "[", count: 10) + String(repeating: "]", count: 10) + "}"
        #expect(JSONByteReader.skimObject(from: ByteBuffer(string: deep), maximumDepth: 11)?["a"] == .array(count: 1))
        #expect(JSONByteReader.skimObject(from: ByteBuffer(string: deep), maximumDepth: 9) == nil)
    }
}
