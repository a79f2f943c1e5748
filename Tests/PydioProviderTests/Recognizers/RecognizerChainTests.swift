import Foundation
import NIOHTTP1
import ProviderAPI
import Testing
import HTTPProviderKit
import PydioProvider

@Suite("XML element trees and response recognizer chains")
struct RecognizerChainTests {
    private func answer(_ body: String, type: String = "text/xml; charset=UTF-8") -> RecognizableAnswer {
        RecognizableAnswer(status: 200, headers: ["Content-Type": type], body: Data(body.utf8), request: "GET /index.php")
    }

    @Test("a document reads into elements with attributes, children and text")
    func tree() throws {
        let root = try XMLElementTree.parse(Data(#"<?xml version="1.0" encoding="UTF-8"?><tree ><message type="ERROR">a &amp; b</message><tree filename="/x" /></tree>"#.utf8))
        #expect(root.name == "tree")
        #expect(root.child("message")?.attributes["type"] == "ERROR")
        #expect(root.child("message")?.text == "a & b")
        #expect(root.children(named: "tree").first?.attributes["filename"] == "/x")
    }

    @Test("hostile or broken documents are invalidResponse, never a crash")
    func hostile() {
        let bad = [
            #"<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><t>&x;</t>"#,
            "<tree><unclosed></tree>", "<tree>", "", "not xml at all", "<a/><b/>",
            String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100),
        ]
        for text in bad {
            let error = #expect(throws: ProviderError.self, "\(text.prefix(30))") { _ = try XMLElementTree.parse(Data(text.utf8)) }
            #expect(error?.code == .invalidResponse)
        }
        #expect(throws: ProviderError.self) { _ = try XMLElementTree.parse(Data([0x3C, 0x61, 0x3E, 0xFF, 0xFE, 0x3C, 0x2F, 0x61, 0x3E])) }
    }

    @Test("the first recognizer that knows an answer decides; anything else is invalidResponse")
    func chain() throws {
        let signIn = ResponseRecognizer<String>("auth") { answer in
            answer.xmlIfAny?.child("require_auth") != nil ? .signInRequired(ProviderError(.unauthorized, "sign in")) : nil
        }
        let error = ResponseRecognizer<String>("error") { answer in
            guard let message = answer.xmlIfAny?.child("message"), message.attributes["type"] == "ERROR" else { return nil }
            return .failure(ProviderError(.server, message.text))
        }
        let value = ResponseRecognizer<String>("value") { answer in
            answer.xmlIfAny?.child("logging_result").flatMap { $0.attributes["value"] }.map { .value($0) }
        }
        let chain = ResponseRecognizerChain([signIn, error, value])
        #expect(try chain.value(of: answer(#"<tree ><logging_result value="1"/></tree>"#)) == "1")
        guard case .signInRequired = try chain.recognize(answer("<tree ><require_auth/></tree>")) else {
            Issue.record("require_auth was not a sign-in demand")
            return
        }
        #expect(throws: ProviderError.self) { try chain.value(of: answer(#"<tree ><message type="ERROR">no</message></tree>"#)) }
        let unexpected = #expect(throws: ProviderError.self) { try chain.value(of: answer("<html>oops</html>", type: "text/html")) }
        #expect(unexpected?.code == .invalidResponse)
        #expect(unexpected?.message?.contains("text/html") == true)
        let mapped = value.map { Int($0) ?? 0 }
        #expect(try ResponseRecognizerChain([mapped]).value(of: answer(#"<tree ><logging_result value="-4"/></tree>"#)) == -4)
    }

    @Test("a cookie jar keeps cookies per server, replaces, and deletes them")
    func cookies() {
        let jar = CookieJar()
        let server = URL(string: "http://127.0.0.1:8090/pydio/index.php")!
        let other = URL(string: "http://localhost:8090/")!
        jar.store(["Set-Cookie": "AjaXplorer=one; path=/; HttpOnly"], from: server)
        #expect(jar.header(for: server) == "AjaXplorer=one")
        #expect(jar.header(for: other) == nil)
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "AjaXplorer=two; path=/; HttpOnly")
        headers.add(name: "Set-Cookie", value: "AjaXplorer-remember=user%3Aabc; expires=Wed, 02-Dec-2099 02:39:45 GMT")
        jar.store(headers, from: server)
        #expect(jar.header(for: server) == "AjaXplorer=two; AjaXplorer-remember=user%3Aabc")
        jar.store(["Set-Cookie": "AjaXplorer-remember=deleted; expires=Thu, 01-Jan-1970 00:00:01 GMT; Max-Age=0"], from: server)
        #expect(jar.value("AjaXplorer-remember", for: server) == nil)
        #expect(jar.value("AjaXplorer", for: server) == "two")
    }
}
