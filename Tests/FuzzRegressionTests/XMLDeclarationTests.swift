import Foundation
import ProviderAPI
import StrataFuzzTargets
import Testing
import HTTPProviderKit

/// The first crash `scripts/fuzz` found (pydio target): a malformed XML declaration naming
/// US-ASCII made the guard in front of Foundation's `XMLParser` skip its UTF-8 check, libxml2
/// ignored that declaration, and an attribute name holding the byte 0xFF reached the parser, which
/// traps on Linux. `XMLByteReader`, which replaced both, reads the declaration as strictly.
@Suite("XML declarations read strictly")
struct XMLDeclarationTests {
    @Test("a malformed declaration is refused instead of trusted", arguments: [
        "<?xml versioencoding=\"US-ASCII\"TF-8\"?><tree text=\"\" is_f\u{FF}le=\"false\" filename5\"/459\"></tree>",
        "<?xml versioencoding=\"ISO-8859-1\"?><tree is_f\u{FF}le=\"false\"/>",
        "<?xml version=\"1.0\" standalone=\"yes\" encoding=\"latin1\"?><tree is_f\u{FF}le=\"false\"/>",
        "<?xml encoding=\"US-ASCII\"?><tree/>",
        "<?xml version=\"1.0\"encoding=\"US-ASCII\"?><tree/>",
        "<?xml version=\"1.0\" encoding=\"US-ASCII\" encoding=\"UTF-8\"?><tree/>",
    ])
    func malformed(document: String) {
        // The strings stand for bytes: U+00FF is the single byte 0xFF, as a server would send it.
        let data = Data(document.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        #expect(throws: ProviderError.self) { try XMLElementTree.parse(data) }
        #expect(FuzzTarget.pydio.run(data) == .rejected(.invalidResponse))
    }

    @Test("well-formed declarations still name their encoding", arguments: [
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><tree name=\"caf\u{E9}\"/>", "caf\u{E9}"),
        ("<?xml version='1.0' encoding='utf-8' standalone='yes' ?><tree name=\"x\"/>", "x"),
        ("<?xml version=\"1.0\"?><tree name=\"x\"/>", "x"),
        ("<?xml-stylesheet href=\"a\"?><tree name=\"x\"/>", "x"),
    ])
    func wellFormed(document: String, name: String) throws {
        let data = Data(document.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        #expect(try XMLElementTree.parse(data).attributes["name"] == name)
    }

    @Test("the kept reproducer is refused")
    func reproducer() throws {
        let file = FuzzReproducerTests.packageRoot.appendingPathComponent("Fuzz/Reproducers/pydio/malformed-declaration-latin-name.xml")
        let data = try Data(contentsOf: file)
        #expect(throws: ProviderError.self) { try XMLElementTree.parse(data) }
    }
}
