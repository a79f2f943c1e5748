import Foundation
import ProviderAPI
import Testing

/// Parses through the throwing initialiser (a bare literal would use the trapping literal initialiser).
private func parse(_ text: String) throws -> ItemPath { try ItemPath(text) }

@Suite("ItemPath")
struct ItemPathTests {
    @Test("leading and trailing slashes are dropped", arguments: ["/a/b/", "a/b", "/a/b", "a/b/", "//a/b//"])
    func normalises(_ text: String) throws {
        let path = try ItemPath(text)
        #expect(path.segments == ["a", "b"])
        #expect(path.description == "/a/b")
        #expect(path == (try parse("/a/b")))
    }

    @Test("the root", arguments: ["/", "", "//", "///"])
    func root(_ text: String) throws {
        let path = try ItemPath(text)
        #expect(path.isRoot)
        #expect(path == .root)
        #expect(path.segments.isEmpty)
        #expect(path.description == "/")
        #expect(path.name == "")
        #expect(path.parent == .root)
    }

    @Test("invalid paths are refused", arguments: ["..", "/..", "a/../b", "/a/..", ".", "/a/./b", "a//b", "/a//b/", "a\u{0}b", "/x/\u{0}"])
    func refusesInvalid(_ text: String) {
        let error = #expect(throws: ProviderError.self) { try ItemPath(text) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("segments keep dots inside names and other odd characters")
    func oddButValidNames() throws {
        let path = try parse("/.hidden/...three/a..b/ spaced /…")
        #expect(path.segments == [".hidden", "...three", "a..b", " spaced ", "…"])
    }

    @Test("segments keep their Unicode normalisation")
    func keepsNormalisation() throws {
        let nfc = try parse("/caf\u{E9}")
        let nfd = try parse("/cafe\u{301}")
        #expect(Array(nfc.name.utf8) == [0x63, 0x61, 0x66, 0xC3, 0xA9])
        #expect(Array(nfd.name.utf8) == [0x63, 0x61, 0x66, 0x65, 0xCC, 0x81])
    }

    @Test("init(segments:) validates each segment")
    func segmentsInit() throws {
        #expect(try ItemPath(segments: ["a", "b c"]).description == "/a/b c")
        #expect(try ItemPath(segments: []) == .root)
        for bad in [[""], ["."], [".."], ["a/b"], ["a", "\u{0}"]] {
            let error = #expect(throws: ProviderError.self) { try ItemPath(segments: bad) }
            #expect(error?.code == .invalidArgument, "segments \(bad)")
        }
    }

    @Test("appending a name and a path")
    func appending() throws {
        let folder = try parse("/a")
        #expect(try folder.appending("b").description == "/a/b")
        #expect(try ItemPath.root.appending("x").description == "/x")
        #expect(folder.appending(try parse("c/d")).description == "/a/c/d")
        #expect(folder.appending(.root) == folder)
        for bad in ["", ".", "..", "x/y", "nul\u{0}"] {
            let error = #expect(throws: ProviderError.self) { try folder.appending(bad) }
            #expect(error?.code == .invalidArgument, "name \(bad.debugDescription)")
        }
    }

    @Test("parent and name")
    func parentAndName() throws {
        let path = try parse("/a/b/c.txt")
        #expect(path.name == "c.txt")
        #expect(path.parent.description == "/a/b")
        #expect(path.parent.parent.parent == .root)
        #expect(path.parent.parent.parent.parent == .root)
    }

    @Test("isDescendant and relative")
    func descendants() throws {
        let a = try parse("/a")
        let ab = try parse("/a/b")
        let abc = try parse("/a/b/c")
        let ax = try parse("/ax")
        #expect(abc.isDescendant(of: a))
        #expect(abc.isDescendant(of: abc))
        #expect(abc.isDescendant(of: .root))
        #expect(!a.isDescendant(of: ab))
        #expect(!ax.isDescendant(of: a), "a prefix of the text is not an ancestor")
        #expect(abc.relative(to: a)?.description == "/b/c")
        #expect(abc.relative(to: abc) == .root)
        #expect(abc.relative(to: .root) == abc)
        #expect(ax.relative(to: a) == nil)
        #expect(a.relative(to: ab) == nil)
    }

    @Test("ordering is by segments")
    func ordering() throws {
        let paths = try ["/b", "/a/z", "/a", "/", "/a/b"].map { try ItemPath($0) }
        #expect(paths.sorted().map(\.description) == ["/", "/a", "/a/b", "/a/z", "/b"])
    }

    @Test("Codable round-trip as a string")
    func codable() throws {
        let paths = try ["/", "/a", "/a b/c#d/é/😀", "/cafe\u{301}"].map { try ItemPath($0) }
        let data = try JSONEncoder().encode(paths)
        let decoded = try JSONDecoder().decode([ItemPath].self, from: data)
        #expect(decoded == paths)
        #expect(decoded.map { Array($0.name.utf8) } == paths.map { Array($0.name.utf8) })
        let single = try JSONEncoder().encode(try parse("a/b/"))
        #expect(String(decoding: single, as: UTF8.self) == #""\/a\/b""# || String(decoding: single, as: UTF8.self) == #""/a/b""#)
    }

    @Test("decoding an invalid path fails")
    func decodingInvalid() {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(ItemPath.self, from: Data(#""/a/../b""#.utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(ItemPath.self, from: Data("42".utf8)) }
    }

    @Test("a string literal is parsed")
    func literal() {
        let path: ItemPath = "/x/y/"
        #expect(path.segments == ["x", "y"])
    }
}

@Suite("ItemPath identity and shared prefixes")
struct ItemPathIdentityTests {
    private let nfc = "caf\u{E9}.txt"
    private let nfd = "cafe\u{301}.txt"

    @Test("names Swift's String calls equal are different paths: NFC and NFD")
    func normalisationsDiffer() throws {
        #expect(nfc == nfd, "the premise: String equates them")
        let a = try ItemPath.root.appending("docs").appending(nfc)
        let b = try ItemPath.root.appending("docs").appending(nfd)
        #expect(a != b)
        #expect(Set([a, b]).count == 2)
        #expect([a: 1, b: 2].count == 2)
        #expect(!a.isDescendant(of: b) && !b.isDescendant(of: a))
        #expect(try a.appending("x").relative(to: b) == nil)
        #expect((a < b) != (b < a), "two different paths are ordered one way")
        // Folders spelt differently are different too, below as well as at the end.
        #expect(try ItemPath(segments: [nfc, "x"]) != (try ItemPath(segments: [nfd, "x"])))
        #expect(try ItemPath(segments: [nfc, "x"]) == (try ItemPath(segments: [nfc, "x"])))
    }

    @Test("paths sort by the bytes of their segments, a folder before what is below it")
    func bytewiseOrder() throws {
        let paths = try ["/b", "/a/z", "/a", "/\u{E9}", "/e\u{301}", "/a/b", "/B"].map(parse)
        let sorted = paths.sorted().map(\.description)
        #expect(sorted == ["/B", "/a", "/a/b", "/a/z", "/b", "/e\u{301}", "/\u{E9}"])
    }

    @Test("paths built by appending equal the same paths parsed, and hash alike")
    func builtEqualsParsed() throws {
        var built = ItemPath.root
        for name in ["a", "b c", nfd] { built = try built.appending(name) }
        let parsed = try ItemPath("/a/b c/\(nfd)")
        #expect(built == parsed)
        #expect(built.hashValue == parsed.hashValue)
        #expect(built.depth == 3 && parsed.depth == 3)
        #expect(built.parent.parent == (try parse("/a")))
        #expect(try parse("/a/b").appending(try parse("c/d")) == (try parse("/a/b/c/d")))
        #expect(try parse("/a/b/c/d").relative(to: try parse("/a/b")) == (try parse("c/d")))
        #expect(try parse("/a/b").relative(to: .root) == (try parse("/a/b")))
        #expect(try parse("/a/b").isDescendant(of: try parse("/a/b")))
        #expect(!(try parse("/a/bc")).isDescendant(of: try parse("/a/b")))
        #expect(ItemPath.root.depth == 0)
    }

    @Test("a path a million folders deep is made and let go without a stack frame per folder")
    func deepChainReleased() throws {
        var path = ItemPath.root
        for index in 0..<1_000_000 { path = try path.appending(index.isMultiple(of: 2) ? "a" : "b") }
        #expect(path.depth == 1_000_000)
        #expect(path.parent.depth == 999_999)
        // Dropping the only reference releases the whole chain (a recursive release would overflow the stack).
        path = .root
        #expect(path.isRoot)
    }
}
