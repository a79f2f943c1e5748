import Foundation
import HTTPProviderKit
import ProviderAPI
import Testing

@Suite("ApplicationURL")
struct ApplicationURLTests {
    private let expected = "an app URL is http(s)://host/app/path"

    @Test("the application is the first segment by default; the rest is decoded once")
    func firstSegment() throws {
        let split = try ApplicationURL(
            URL(string: "https://user:secret@host:8443/nuxeo/default-domain/a%20b/%2541?x=1#f")!, applicationPath: nil,
            expected: expected)
        #expect(split.applicationPath == ["nuxeo"])
        #expect(split.remainder == ["default-domain", "a b", "%41"])
        #expect(try split.url(trailingSlash: false).absoluteString == "https://host:8443/nuxeo")
        #expect(try split.url(trailingSlash: true).absoluteString == "https://host:8443/nuxeo/")
    }

    @Test("a given application path of several segments, or none")
    func givenPath() throws {
        let deep = try ApplicationURL(URL(string: "http://host/a/b/ws/x")!, applicationPath: "/a/b", expected: expected)
        #expect(deep.applicationPath == ["a", "b"] && deep.remainder == ["ws", "x"])
        #expect(try deep.url(trailingSlash: true).absoluteString == "http://host/a/b/")
        let root = try ApplicationURL(URL(string: "http://host/ws/x")!, applicationPath: "/", expected: expected)
        #expect(root.applicationPath.isEmpty && root.remainder == ["ws", "x"])
        #expect(try root.url(trailingSlash: false).absoluteString == "http://host")
        #expect(try root.url(trailingSlash: true).absoluteString == "http://host/")
    }

    @Test("an application segment that needs escaping is escaped in its URL")
    func escaped() throws {
        let split = try ApplicationURL(URL(string: "http://host/my%20app/x")!, applicationPath: nil, expected: expected)
        #expect(split.applicationPath == ["my app"])
        #expect(try split.url(trailingSlash: true).absoluteString == "http://host/my%20app/")
    }

    @Test("not http(s), no host, a bad port or another application path is invalidArgument, without the password")
    func refused() {
        for (text, path) in [
            ("ftp://host/app/x", nil), ("http:///app/x", nil), ("http://u:secret@host:70000/app/x", nil),
            ("http://u:secret@host/other/x", "/app"),
        ] as [(String, String?)] {
            #expect {
                try ApplicationURL(URL(string: text)!, applicationPath: path, expected: expected)
            } throws: { error in
                guard let error = error as? ProviderError else { return false }
                return error.code == .invalidArgument && !(error.message ?? "").contains("secret")
            }
        }
    }
}
