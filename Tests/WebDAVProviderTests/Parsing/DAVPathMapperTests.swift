import Foundation
import ProviderAPI
import Testing

@testable import WebDAVProvider
import ProviderKit

private func mapper(_ root: String) throws -> DAVPathMapper {
    try DAVPathMapper(root: try #require(URL(string: root)))
}

/// The percent-encoded path of `url`, split on `/` and decoded byte for byte.
private func decodedSegments(of url: URL) throws -> [[UInt8]] {
    let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
    return try components.percentEncodedPath.split(separator: "/").map { segment in
        Array(try #require(String(segment).removingPercentEncoding).utf8)
    }
}

/// Names the servers escape differently; each must survive the trip to a URL and back byte for byte.
private let nameMatrix: [String] = [
    "plain.txt", "with space", "hash#tag", "100%", "%41 literal", "what?", "a&b", "1+1=2", "semi;colon", "it's",
    "say \"hi\"", "emoji 😀🎉", "caf\u{E9} (NFC)", "cafe\u{301} (NFD)", "日本語", "tab\there", "~tilde_-.", "[brackets]",
    "{braces}", "back\\slash", "colon:name", "at@sign", "comma,name", "dollar$", "excl!", "star*", "pipe|", "<angle>",
    "ends with dot.", " leading space", "trailing space ", "..dots", "a..b", ".hidden", "%2F", "%2e%2e", "+", "%",
    "\u{FF1F}fullwidth", "\u{200B}zero width", "new\nline",
]

extension Parsing {
    @Suite("DAVPathMapper")
    struct DAVPathMapperTests {
        // MARK: Root

        @Test("the root always ends with a slash and loses user info, query and fragment")
        func root() throws {
            #expect(try mapper("http://127.0.0.1:8080/dav").root.absoluteString == "http://127.0.0.1:8080/dav/")
            #expect(try mapper("http://127.0.0.1:8080/dav/").root.absoluteString == "http://127.0.0.1:8080/dav/")
            #expect(try mapper("http://127.0.0.1:8080").root.absoluteString == "http://127.0.0.1:8080/")
            #expect(try mapper("https://ann:pw@h.example/dav/?x=1#frag").root.absoluteString == "https://h.example/dav/")
        }

        @Test("a root that is not http or https is refused", arguments: ["ftp://h/dav/", "file:///tmp/", "/relative/", "webdav://h/"])
        func badRoot(_ text: String) {
            let error = #expect(throws: ProviderError.self) { try DAVPathMapper(root: URL(string: text)!) }
            #expect(error?.code == .invalidArgument)
        }

        // MARK: url(for:)

        @Test("url(for:) escapes everything but unreserved characters")
        func escaping() throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            let cases: [(String, String)] = [
                ("a b", "a%20b"), ("a#b", "a%23b"), ("100%", "100%25"), ("a?b", "a%3Fb"), ("a&b", "a%26b"), ("a+b", "a%2Bb"),
                ("a;b", "a%3Bb"), ("it's", "it%27s"), ("\"q\"", "%22q%22"), ("😀", "%F0%9F%98%80"), ("caf\u{E9}", "caf%C3%A9"),
                ("cafe\u{301}", "cafe%CC%81"), ("~a_b-c.d", "~a_b-c.d"), ("a=b,c:d@e", "a%3Db%2Cc%3Ad%40e"),
            ]
            for (name, encoded) in cases {
                let url = m.url(for: try ItemPath(segments: ["x y", name]))
                #expect(url.absoluteString == "http://127.0.0.1:8080/dav/x%20y/\(encoded)", "\(name.debugDescription)")
            }
        }

        @Test("url(for:) keeps NFC and NFD bytes distinct")
        func normalisationBytes() throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            let nfc = m.url(for: try ItemPath(segments: ["caf\u{E9}"]))
            let nfd = m.url(for: try ItemPath(segments: ["cafe\u{301}"]))
            #expect(nfc != nfd)
            #expect(try decodedSegments(of: nfc).last == Array("caf\u{E9}".utf8))
            #expect(try decodedSegments(of: nfd).last == Array("cafe\u{301}".utf8))
        }

        @Test("url(for:) of folders ends with a slash; the root is the root URL")
        func folders() throws {
            let m = try mapper("http://h/dav/")
            #expect(m.url(for: .root).absoluteString == "http://h/dav/")
            #expect(m.url(for: .root, folder: true).absoluteString == "http://h/dav/")
            #expect(m.url(for: "/a/b", folder: true).absoluteString == "http://h/dav/a/b/")
            #expect(m.url(for: "/a/b").absoluteString == "http://h/dav/a/b")
        }

        @Test("url(for:) below a root with escaped characters")
        func escapedRootURL() throws {
            let m = try mapper("http://h/remote.php/dav/files/John%20Doe/")
            #expect(m.url(for: "/a b").absoluteString == "http://h/remote.php/dav/files/John%20Doe/a%20b")
        }

        // MARK: path(forHref:)

        @Test("Apache style: lowercase escapes, raw & + ;")
        func apacheStyle() throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            #expect(try m.path(forHref: "/dav/a%20b/x&y+z;w.txt").segments == ["a b", "x&y+z;w.txt"])
            #expect(try m.path(forHref: "/dav/caf%c3%a9").segments == ["caf\u{E9}"])
            #expect(try m.path(forHref: "/dav/100%25/it's").segments == ["100%", "it's"])
            #expect(try m.path(forHref: "/dav/folder/").segments == ["folder"])
        }

        @Test("sabre style: lowercase escapes, everything escaped")
        func sabreStyle() throws {
            let m = try mapper("http://127.0.0.1:8080/remote.php/dav/files/ann/")
            #expect(try m.path(forHref: "/remote.php/dav/files/ann/x%26y%2bz%3bw%20%28copy%29.txt").segments == ["x&y+z;w (copy).txt"])
            #expect(try m.path(forHref: "/remote.php/dav/files/ann/%f0%9f%98%80/%23%3f").segments == ["😀", "#?"])
        }

        @Test("nginx style: uppercase escapes, raw characters")
        func nginxStyle() throws {
            let m = try mapper("http://127.0.0.1:8080/")
            #expect(try m.path(forHref: "/caf%C3%A9/a+b&c;d=e").segments == ["caf\u{E9}", "a+b&c;d=e"])
            #expect(try m.path(forHref: "/cafe%CC%81").segments.map { Array($0.utf8) } == [Array("cafe\u{301}".utf8)])
        }

        @Test("chezdav style: raw '#' and '?' are part of the name, a '%' without two hex digits is kept")
        func chezdavStyle() throws {
            let m = try mapper("http://127.0.0.1:8080/")
            #expect(try m.path(forHref: "/a#b/c?d.txt").segments == ["a#b", "c?d.txt"])
            #expect(try m.path(forHref: "/100%/x%zz").segments == ["100%", "x%zz"])
            #expect(try m.path(forHref: "/%E2%82%AC #1?").segments == ["\u{20AC} #1?"])
        }

        @Test("an absolute href without a path (http://host:port) is the root")
        func originOnly() throws {
            #expect(try mapper("http://127.0.0.1:8080/").path(forHref: "http://127.0.0.1:8080").isRoot)
            #expect(try mapper("http://127.0.0.1:8080/").path(forHref: "http://127.0.0.1:8080?x").isRoot)
        }

        @Test("'+' is never a space")
        func plusIsPlus() throws {
            #expect(try mapper("http://h/").path(forHref: "/a+b").name == "a+b")
        }

        @Test("absolute hrefs naming the same origin", arguments: [
            ("http://127.0.0.1:8080/dav/", "http://127.0.0.1:8080/dav/a%20b"),
            ("http://127.0.0.1:8080/dav/", "HTTP://127.0.0.1:8080/dav/a%20b"),
            ("http://Host.Example/dav/", "http://host.example/dav/a%20b"),
            ("http://host.example/dav/", "http://host.example:80/dav/a%20b"),
            ("http://host.example:80/dav/", "http://host.example/dav/a%20b"),
            ("https://host.example/dav/", "https://host.example:443/dav/a%20b"),
            ("https://host.example:443/dav/", "https://host.example/dav/a%20b"),
            ("http://127.0.0.1:8080/dav/", "http://ann@127.0.0.1:8080/dav/a%20b"),
            ("http://[::1]:8080/dav/", "http://[::1]:8080/dav/a%20b"),
            ("http://[::1]/dav/", "http://[::1]/dav/a%20b"),
            ("http://127.0.0.1:8080/dav/", "http://127.0.0.1:8080/dav/a%20b?version=2#top"),
        ])
        func absoluteSameOrigin(_ root: String, _ href: String) throws {
            #expect(try mapper(root).path(forHref: href).segments == ["a b"], "\(href) under \(root)")
        }

        @Test("hrefs naming another origin are refused", arguments: [
            ("http://127.0.0.1:8080/dav/", "http://evil.example/dav/a"),
            ("http://127.0.0.1:8080/dav/", "http://127.0.0.1:9090/dav/a"),
            ("http://127.0.0.1:8080/dav/", "http://127.0.0.1/dav/a"),
            ("http://host.example/dav/", "https://host.example/dav/a"),
            ("https://host.example/dav/", "http://host.example/dav/a"),
            ("http://host.example/dav/", "http://host.example.evil.example/dav/a"),
            ("http://host.example/dav/", "http://host.example@evil.example/dav/a"),
            ("http://host.example/dav/", "http://host.example:notaport/dav/a"),
            ("http://[::1]:8080/dav/", "http://[::2]:8080/dav/a"),
        ])
        func otherOrigin(_ root: String, _ href: String) throws {
            let m = try mapper(root)
            let error = #expect(throws: ProviderError.self) { try m.path(forHref: href) }
            #expect(error?.code == .invalidResponse, "\(href) under \(root)")
        }

        @Test("dot segments are refused, raw or encoded", arguments: [
            "/dav/a/../b", "/dav/..", "/dav/../dav/a", "/dav/%2e%2e/x", "/dav/%2E%2E/x", "/dav/.%2e/x", "/dav/a/./b", "/dav/%2e/b",
            "/dav/%2E", "http://127.0.0.1:8080/dav/%2e%2e/%2e%2e/etc/passwd",
        ])
        func dotSegments(_ href: String) throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            let error = #expect(throws: ProviderError.self) { try m.path(forHref: href) }
            #expect(error?.code == .invalidResponse, "\(href)")
        }

        @Test("an encoded slash never becomes a separator", arguments: ["/dav/a%2Fb", "/dav/a%2fb", "/dav/%2F", "/dav/x/%2F..%2F..%2Fetc"])
        func encodedSlash(_ href: String) throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            let error = #expect(throws: ProviderError.self) { try m.path(forHref: href) }
            #expect(error?.code == .invalidResponse, "\(href)")
        }

        @Test("other invalid hrefs are refused", arguments: [
            "/dav/nul%00byte", "/dav/%FF%FE", "/dav/%C3", "relative/path", "", "dav/a", "?query", "#frag",
        ])
        func invalidHrefs(_ href: String) throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            let error = #expect(throws: ProviderError.self) { try m.path(forHref: href) }
            #expect(error?.code == .invalidResponse, "\(href.debugDescription)")
        }

        @Test("hrefs outside the root prefix are refused", arguments: ["/", "/other/a", "/da", "/davx/a", "/DAV/a", "/x/dav/a"])
        func outsideRoot(_ href: String) throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            let error = #expect(throws: ProviderError.self) { try m.path(forHref: href) }
            #expect(error?.code == .invalidResponse, "\(href)")
        }

        @Test("the root itself, with or without a slash, is the root path")
        func rootHref() throws {
            let m = try mapper("http://127.0.0.1:8080/dav/")
            #expect(try m.path(forHref: "/dav/") == .root)
            #expect(try m.path(forHref: "/dav") == .root)
            #expect(try m.path(forHref: "http://127.0.0.1:8080/dav/") == .root)
            #expect(try mapper("http://h/").path(forHref: "/") == .root)
        }

        @Test("a root with escaped characters in its own path")
        func escapedRoot() throws {
            let m = try mapper("http://127.0.0.1:8080/remote.php/dav/files/John%20Doe/caf%C3%A9/")
            #expect(try m.path(forHref: "/remote.php/dav/files/John%20Doe/caf%C3%A9/a").segments == ["a"])
            #expect(try m.path(forHref: "/remote.php/dav/files/John%20Doe/caf%c3%a9/a").segments == ["a"], "lowercase escapes")
            #expect(try m.path(forHref: "/remote.php/dav/files/John Doe/caf\u{E9}/a").segments == ["a"], "raw characters")
            #expect(try m.path(forHref: "/remote.php/dav/files/John%20Doe/caf%C3%A9/") == .root)
            let nfd = #expect(throws: ProviderError.self) { try m.path(forHref: "/remote.php/dav/files/John%20Doe/cafe%CC%81/a") }
            #expect(nfd?.code == .invalidResponse, "NFD is another folder than NFC")
            let other = #expect(throws: ProviderError.self) { try m.path(forHref: "/remote.php/dav/files/John%2BDoe/caf%C3%A9/a") }
            #expect(other?.code == .invalidResponse)
        }

        @Test("a malformed escape is kept as it is")
        func malformedEscape() throws {
            let m = try mapper("http://h/")
            #expect(try m.path(forHref: "/100%zz").name == "100%zz")
            #expect(try m.path(forHref: "/a%").name == "a%")
            #expect(try m.path(forHref: "/a%4").name == "a%4")
            #expect(try m.path(forHref: "/%41").name == "A")
        }

        // MARK: Round trip

        @Test("round-trip: every name survives url(for:) and path(forHref:) byte for byte", arguments: [
            "http://127.0.0.1:8080/dav/", "http://127.0.0.1:8080/", "https://h.example/remote.php/dav/files/John%20Doe/",
        ])
        func roundTrip(_ root: String) throws {
            let m = try mapper(root)
            for name in nameMatrix {
                for path in [try ItemPath(segments: [name]), try ItemPath(segments: ["parent dir", name, "child"])] {
                    for folder in [false, true] {
                        let url = m.url(for: path, folder: folder)
                        let encodedPath = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)).percentEncodedPath
                        for href in [encodedPath, url.absoluteString] {
                            let back = try m.path(forHref: href)
                            #expect(
                                back.segments.map { Array($0.utf8) } == path.segments.map { Array($0.utf8) },
                                "\(name.debugDescription) via \(href)")
                        }
                        // A server that echoes names with lowercase escapes.
                        let lowercased = encodedPath.replacing(/%[0-9A-F]{2}/) { $0.output.lowercased() }
                        #expect(try m.path(forHref: lowercased).segments.map { Array($0.utf8) } == path.segments.map { Array($0.utf8) })
                    }
                }
            }
        }
    }
}

extension Parsing {
    @Suite("ConflictNames")
    struct ConflictNamesTests {
        @Test("candidates keep the extension", arguments: [
            ("a.txt", 1, "a (1).txt"), (".bashrc", 1, ".bashrc (1)"), ("noext", 1, "noext (1)"), ("a.txt", 0, "a.txt"),
            ("archive.tar.gz", 2, "archive.tar (2).gz"), ("a b.c d", 12, "a b (12).c d"), (".config.json", 3, ".config (3).json"),
        ])
        func candidates(_ name: String, _ attempt: Int, _ expected: String) {
            #expect(ConflictNames.candidate(name, attempt: attempt) == expected)
        }
    }
}
