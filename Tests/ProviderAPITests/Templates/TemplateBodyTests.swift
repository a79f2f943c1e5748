import Foundation
import NIOCore
import ProviderAPI
import Testing
import HTTPProviderKit

private let base = url("http://127.0.0.1:8080/nuxeo")

private func body(_ body: TemplateBody, _ arguments: TemplateArguments) throws -> (text: String?, contentType: String?) {
    let request = try RequestTemplate(name: "b", method: "POST", path: "/", body: body).makeRequest(baseURL: base, arguments: arguments)
    return (bodyText(request), request.headers.first(name: "content-type"))
}

private func json(_ text: String?) throws -> JSONValue {
    try JSONValue(json: Data((text ?? "").utf8))
}

@Suite("RequestTemplate bodies")
struct TemplateBodyTests {
    @Test("a JSON body escapes quotes, backslashes, newlines and control characters inside strings")
    func jsonEscaping() throws {
        let hostile = "say \"hi\"\\ \n\t\u{1} </script> é"
        let template: TemplateBody = .json(["params": ["name": "{name}", "label": "Name: {name}"]])
        let (text, contentType) = try body(template, ["name": .string(hostile)])
        #expect(contentType == "application/json")
        let parsed = try json(text)
        #expect(parsed["params"]?["name"] == .string(hostile))
        #expect(parsed["params"]?["label"] == .string("Name: " + hostile))
        #expect(text?.contains("\n") == false, "the newline is escaped, not raw")
        #expect(text?.contains("\\\"hi\\\"") == true)
    }

    @Test("a whole-string placeholder keeps the argument's JSON type")
    func typedSubstitution() throws {
        let template: TemplateBody = .json([
            "input": "doc:{uid}", "count": "{count}", "ratio": "%0", "flag": "{flag}", "list": "{list}", "object": "{object}",
            "nothing": "{nothing}", "fixed": 3, "nested": ["{count}", "{missing?}", "x"], "note": "{note?}",
        ])
        let arguments = TemplateArguments(
            [2.5], named: ["uid": "u1", "count": 10, "flag": false, "list": [1, "two"], "object": ["k": "v"], "nothing": .null])
        let (text, _) = try body(template, arguments)
        let parsed = try json(text)
        #expect(parsed["input"] == "doc:u1")
        #expect(parsed["count"] == 10)
        #expect(parsed["ratio"] == 2.5)
        #expect(parsed["flag"] == false)
        #expect(parsed["list"] == [1, "two"])
        #expect(parsed["object"] == ["k": "v"])
        #expect(parsed["nothing"] == .null, "an explicit null stays null")
        #expect(parsed["fixed"] == 3)
        #expect(parsed["nested"] == [10, "x"], "a missing optional element is left out")
        #expect(parsed["note"] == nil, "a missing optional member is left out")
        #expect(text?.contains("\"count\":10") == true, "numbers are raw, not quoted")
    }

    @Test("a missing required argument in a JSON body is invalidArgument")
    func jsonMissing() {
        let error = #expect(throws: ProviderError.self) { _ = try body(.json(["a": "{x}"]), .none) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("a form body is form-encoded and leaves out missing optional fields")
    func form() throws {
        let template: TemplateBody = .form([TemplateField("user", "{user}"), TemplateField("pass", "{pass}"), TemplateField("otp", "{otp?}")])
        let (text, contentType) = try body(template, ["user": "a b", "pass": "p+w&d=1"])
        #expect(text == "user=a%20b&pass=p%2Bw%26d%3D1")
        #expect(contentType == "application/x-www-form-urlencoded")
    }

    @Test("a text body substitutes values as they are")
    func text() throws {
        let (text, contentType) = try body(.text("<q>{q}</q>"), ["q": "a & b"])
        #expect(text == "<q>a & b</q>")
        #expect(contentType == "text/plain; charset=utf-8")
    }

    @Test("a body round-trips through Codable")
    func codable() throws {
        for value in [TemplateBody.text("t {x}"), .json(["a": ["{x}", 1, true, .null]]), .form([TemplateField("a", "{b}")])] {
            let data = try JSONEncoder().encode(value)
            #expect(try JSONDecoder().decode(TemplateBody.self, from: data) == value)
        }
        #expect(try JSONDecoder().decode(TemplateBody.self, from: Data("\"plain {x}\"".utf8)) == .text("plain {x}"))
        #expect(throws: (any Error).self) { try JSONDecoder().decode(TemplateBody.self, from: Data(#"{"json": 1, "text": "a"}"#.utf8)) }
    }
}
