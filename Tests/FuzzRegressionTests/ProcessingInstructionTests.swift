import Foundation
import ProviderAPI
import StrataFuzzTargets
import Testing
import HTTPProviderKit

/// The second crash `scripts/fuzz` found, in three targets at once (pydio, ocs, multistatus): for
/// `<?target?>` libxml2 handed Foundation's `XMLParser` no data, and its Linux callback ran
/// `strlen` on it (a segmentation fault). Every XML document is now read by `XMLByteReader`, which
/// reads such an instruction as the well-formed XML it is, and refuses one without a target.
@Suite("Processing instructions without data")
struct ProcessingInstructionTests {
    @Test("a processing instruction without data is read, wherever it is", arguments: [
        "<?a?><r/>", "<r><?a?></r>", "<r/><?a?>", "<?xml version=\"1.0\"?><?a?><r/>",
    ])
    func read(document: String) throws {
        #expect(try XMLElementTree.parse(Data(document.utf8)).name == "r")
        #expect(!FuzzTarget.pydio.run(Data(document.utf8)).isFinding)
        #expect(FuzzTarget.ocs.run(Data(document.utf8)) == .rejected(.invalidResponse))
    }

    @Test("a processing instruction without a target, or an XML declaration without a version, is refused", arguments: [
        "<??><r/>", "<?xml?><r/>", "<r><? a?></r>", "<r><?xml version=\"1.0\"?></r>",
    ])
    func refused(document: String) {
        #expect(throws: ProviderError.self) { try XMLElementTree.parse(Data(document.utf8)) }
        #expect(FuzzTarget.pydio.run(Data(document.utf8)) == .rejected(.invalidResponse))
        #expect(FuzzTarget.ocs.run(Data(document.utf8)) == .rejected(.invalidResponse))
    }

    @Test("a processing instruction with data is still read")
    func withData() throws {
        let root = try XMLElementTree.parse(Data("<?a b?><r x=\"1\"><?c d?></r>".utf8))
        #expect(root.name == "r")
        #expect(root.attributes["x"] == "1")
    }

    @Test("the kept reproducers are refused", arguments: [
        (FuzzTarget.pydio, "pydio/pi-without-data.xml"), (.ocs, "ocs/pi-without-data.xml"),
        (.multistatus, "multistatus/pi-without-data.xml"),
    ])
    func reproducers(target: FuzzTarget, path: String) throws {
        let data = try Data(contentsOf: FuzzReproducerTests.packageRoot.appendingPathComponent("Fuzz/Reproducers/\(path)"))
        #expect(throws: ProviderError.self) { try XMLElementTree.parse(data) }
        #expect(!target.run(data).isFinding)
    }
}
