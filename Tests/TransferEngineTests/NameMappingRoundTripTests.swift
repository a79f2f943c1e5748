import Foundation
import ProviderAPI
import ProviderConformance
import SharedCache
import Testing
import TransferEngine

/// Pydio's rules: `? " | \` refused, no leading space, no dot-files, names stored in NFC.
let pydioLikeNames = NameRules(
    forbiddenCharacters: ["?", "\"", "|", "\\"], allowsLeadingSpace: false, allowsDotFiles: false, normalization: .nfc)

/// Names mapped onto a destination that refuses them are mapped back on the way back: a round
/// trip A → B → A leaves A as it was, with no deletion and no look-alike file, and `check` agrees
/// both ways.
@Suite("name mapping both ways")
struct NameMappingRoundTripTests {
    /// A tree with every kind of name Pydio maps: dot-files and a dot-folder, leading and double
    /// spaces, refused characters, a name holding a look-alike of its own, an NFD name.
    static func awkward(_ tree: LocalTree) throws {
        try tree.write(".config/settings.ini", "settings")
        try tree.write(".hidden", "hidden")
        try tree.write("  two  spaces  .txt", "spaces")
        try tree.write("what?.txt", "a question")
        try tree.write("quote\"d|pipe\\slash.txt", "quoted")
        try tree.write("\u{FF1F}already a look-alike.txt", "look-alike")
        try tree.write("\u{201B}quote.txt", "quote mark")
        try tree.write("nai\u{308}ve nfd.txt", "decomposed")
        try tree.write("caf\u{E9} nfc/r\u{E9}sum\u{E9}.txt", "precomposed")
        try tree.write("plain.txt", "plain")
        try tree.folder(".empty dot folder")
    }

    /// Every path below the tree's root as bytes (NFC and NFD apart), folders ending in `/`, sorted.
    static func bytes(_ tree: LocalTree) throws -> [[UInt8]] {
        try tree.listing().map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Every file's content by its path's bytes.
    static func contents(_ tree: LocalTree) throws -> [[UInt8]: Data] {
        var contents: [[UInt8]: Data] = [:]
        for path in try tree.listing() where !path.hasSuffix("/") { contents[Array(path.utf8)] = try tree.read(path) }
        return contents
    }

    @Test("local → Pydio-like → sync back to the same folder: nothing copied, created or deleted, the folder unchanged")
    func syncBack() async throws {
        let local = try LocalTree()
        try Self.awkward(local)
        let before = try Self.bytes(local)
        let contents = try Self.contents(local)
        let pydio = MemoryServer(names: pydioLikeNames)
        let manager = TransferManager(options: .testing())
        let copied = try await manager.copy(from: local.endpoint, to: pydio.endpoint)
        #expect(copied.succeeded, "\(copied.failures.map { "\($0.relativePath): \($0.message)" })")
        #expect(try await pydio.provider.item(at: "/\u{FF0E}config").isFolder)
        #expect(try await pydio.provider.item(at: "/\u{2420} two  spaces  .txt").size == 6)

        let back = try await manager.sync(from: pydio.endpoint, to: local.endpoint)
        #expect(back.succeeded, "\(back.failures.map { "\($0.relativePath): \($0.message)" })")
        #expect(back.plan.actions(.delete).isEmpty, "\(back.plan.actions(.delete).map(\.relativePath))")
        #expect(back.plan.changesNothing, "\(back.plan.actions.filter { $0.kind != .skip }.map(\.relativePath))")
        #expect(back.deleted == 0 && back.filesCopied == 0 && back.foldersCreated == 0)
        let after = try Self.bytes(local)
        #expect(after == before, "\(after.map { String(decoding: $0, as: UTF8.self).debugDescription })")
        #expect(try Self.contents(local) == contents)
    }

    @Test("local → Pydio-like → sync into a fresh folder: the original names come back, no look-alike, the NFD name in NFC")
    func syncIntoFreshCopy() async throws {
        let local = try LocalTree()
        try Self.awkward(local)
        let pydio = MemoryServer(names: pydioLikeNames)
        let manager = TransferManager(options: .testing())
        #expect(try await manager.copy(from: local.endpoint, to: pydio.endpoint).succeeded)

        let fresh = try LocalTree()
        let back = try await manager.sync(from: pydio.endpoint, to: fresh.endpoint)
        #expect(back.succeeded, "\(back.failures.map { "\($0.relativePath): \($0.message)" })")
        let nfc = try local.listing().map { Array($0.precomposedStringWithCanonicalMapping.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let restored = try Self.bytes(fresh)
        #expect(restored == nfc, "\(restored.map { String(decoding: $0, as: UTF8.self).debugDescription })")
        #expect(try fresh.read(".config/settings.ini") == Data("settings".utf8))
        #expect(try fresh.read("  two  spaces  .txt") == Data("spaces".utf8))
        #expect(try fresh.read("\u{FF1F}already a look-alike.txt") == Data("look-alike".utf8))
        // The look-alikes undone are reported as mappings, decoded.
        let decoded = Dictionary(uniqueKeysWithValues: back.plan.mappedNames.map { ($0.sourceName, $0) })
        #expect(decoded["\u{FF0E}config"]?.destinationName == ".config")
        #expect(decoded["\u{FF0E}config"]?.reason == .decoded)
        #expect(decoded["\u{2420} two  spaces  .txt"]?.destinationName == "  two  spaces  .txt")
    }

    @Test("check both ways after a copy onto a destination that maps names: identical, every file matching")
    func checkBothWays() async throws {
        let local = try LocalTree()
        try Self.awkward(local)
        let pydio = MemoryServer(names: pydioLikeNames)
        let manager = TransferManager(options: .testing())
        let copied = try await manager.copy(from: local.endpoint, to: pydio.endpoint)
        #expect(copied.succeeded)

        let forward = try await manager.check(local.endpoint, against: pydio.endpoint)
        #expect(forward.isIdentical, "missing \(forward.missing), extra \(forward.extra), differing \(forward.differing)")
        #expect(forward.matching == copied.filesCopied)
        let backward = try await manager.check(pydio.endpoint, against: local.endpoint)
        #expect(backward.isIdentical, "missing \(backward.missing), extra \(backward.extra), differing \(backward.differing)")
        #expect(backward.matching == copied.filesCopied)
    }

    @Test("an NFD name onto a destination that stores NFC is a mapping, reported as a normalisation")
    func normalisationIsAMapping() async throws {
        let local = try LocalTree()
        try local.write("nai\u{308}ve nfd.txt", "decomposed")
        try local.write("caf\u{E9} nfc.txt", "precomposed")
        let pydio = MemoryServer(names: pydioLikeNames)
        let report = try await TransferManager(options: .testing()).copy(from: local.endpoint, to: pydio.endpoint)
        #expect(report.succeeded)
        #expect(report.plan.mappedNames.count == 1)
        let mapping = try #require(report.plan.mappedNames.first)
        #expect(Array(mapping.sourceName.utf8) == Array("nai\u{308}ve nfd.txt".utf8))
        #expect(Array(mapping.destinationName.utf8) == Array("na\u{EF}ve nfd.txt".utf8))
        #expect(mapping.reason == .normalized)
        #expect(mapping.destinationPath.map { Array($0.description.utf8) } == Array("/na\u{EF}ve nfd.txt".utf8))
    }

    @Test("the job store keeps a mapped name, and a sync the other way restores a lost NFD file under its own name")
    func recordedNormalisation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = SQLiteTransferJobStore(cache: try CacheStore(directory: directory))
        var options = TransferManager.Options.testing()
        options.jobStore = store
        let manager = TransferManager(options: options)
        let local = try LocalTree()
        try local.write("nai\u{308}ve nfd.txt", "decomposed")
        try local.write(".hidden", "hidden")
        let pydio = MemoryServer(names: pydioLikeNames)
        #expect(try await manager.copy(from: local.endpoint, to: pydio.endpoint).succeeded)

        let recorded = try await store.recordedNames(
            sourceAccount: local.provider.account, sourcePath: .root, destinationAccount: pydio.provider.account, destinationPath: .root)
        let byPath = Dictionary(uniqueKeysWithValues: recorded.map { (Array($0.destinationPath.description.utf8), $0.sourceName) })
        #expect(byPath[Array("/na\u{EF}ve nfd.txt".utf8)].map { Array($0.utf8) } == Array("nai\u{308}ve nfd.txt".utf8))
        #expect(byPath[Array("/\u{FF0E}hidden".utf8)] == ".hidden")

        // Lost on the local side: the sync back restores it under its NFD name, as it was, not an NFC look-alike.
        try FileManager.default.removeItem(at: local.url.appendingPathComponent("nai\u{308}ve nfd.txt"))
        let back = try await manager.sync(from: pydio.endpoint, to: local.endpoint)
        #expect(back.succeeded)
        #expect(back.filesCopied == 1 && back.deleted == 0)
        #expect(try Self.bytes(local) == [Array(".hidden".utf8), Array("nai\u{308}ve nfd.txt".utf8)])
    }

    /// A source with `names` holding `x/<held>`, a byte-exact destination holding `x/<held>` and
    /// `x/<other>`, which the source could only hold as `held`; syncs the source to the destination.
    static func syncOntoTwoSpellings(_ names: NameRules, held: String, other: String) async throws -> (TransferReport, CheckReport, MemoryServer) {
        let source = MemoryServer(names: names)
        _ = try await source.provider.createFolder(named: "x", in: .root)
        _ = try await source.provider.upload(data: Data("held".utf8), to: try ItemPath("x").appending(held))
        let plain = MemoryServer(names: NameRules(), host: "plain.example")
        _ = try await plain.provider.createFolder(named: "x", in: .root)
        _ = try await plain.provider.upload(data: Data("held".utf8), to: try ItemPath("x").appending(held))
        _ = try await plain.provider.upload(data: Data("other".utf8), to: try ItemPath("x").appending(other))
        #expect(try await plain.provider.listAll("/x", pageSize: 10, fields: []).count == 2)
        let manager = TransferManager(options: .testing())
        let report = try await manager.sync(from: source.endpoint, to: plain.endpoint)
        let check = try await manager.check(source.endpoint, against: plain.endpoint)
        return (report, check, plain)
    }

    @Test("a file whose name a case-folding source holds only as another's is kept and reported, never deleted")
    func caseFoldedKept() async throws {
        var folding = pydioLikeNames
        folding.caseSensitive = false
        let (report, check, plain) = try await Self.syncOntoTwoSpellings(folding, held: "readme.txt", other: "README.txt")
        #expect(report.plan.actions(.delete).isEmpty, "\(report.plan.actions(.delete).map(\.relativePath))")
        #expect(report.deleted == 0)
        #expect(report.failures.map(\.error.code) == [.conflict])
        #expect(String(decoding: try await plain.provider.data(at: "/x/README.txt"), as: UTF8.self) == "other")
        #expect(check.extra.isEmpty && check.differing == [ItemPath("x/README.txt")])
    }

    @Test("a file whose name a normalising source holds only as another's (NFD beside NFC) is kept, never deleted")
    func normalisedKept() async throws {
        let (report, check, plain) = try await Self.syncOntoTwoSpellings(pydioLikeNames, held: "caf\u{E9}.txt", other: "cafe\u{301}.txt")
        #expect(report.plan.actions(.delete).isEmpty, "\(report.plan.actions(.delete).map(\.relativePath))")
        #expect(report.deleted == 0)
        #expect(try await plain.provider.listAll("/x", pageSize: 10, fields: []).count == 2)
        #expect(check.extra.isEmpty)
        // The destination's names are keyed by their bytes: the NFC source file is matched to the
        // NFC one, and the NFD one is neither overwritten nor deleted.
        #expect(String(decoding: try await plain.provider.data(at: "/x/cafe\u{301}.txt"), as: UTF8.self) == "other")
        #expect(String(decoding: try await plain.provider.data(at: "/x/caf\u{E9}.txt"), as: UTF8.self) == "held")
        #expect(report.failures.map(\.error.code) == [.conflict])
    }
}
