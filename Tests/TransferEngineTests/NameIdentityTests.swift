import Foundation
import ProviderAPI
import Testing
import TransferEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names told apart as the destination tells them apart (issue 29, loss paths 3 and 4): NFC and NFD
/// twins, and names differing only in case.
@Suite("names compared as the servers compare them")
struct NameIdentityTests {
    static let nfc = "caf\u{E9}.txt"
    static let nfd = "cafe\u{301}.txt"

    /// A provider passed through with other name rules declared: a destination that normalises
    /// or folds case, over a local folder that keeps every spelling (so a file it would have
    /// overwritten shows).
    struct DeclaredNames: ForwardingProvider {
        let base: any StorageProvider
        let capabilities: Capabilities

        init(_ base: any StorageProvider, _ names: NameRules) {
            self.base = base
            var declared = base.capabilities
            declared.names = names
            capabilities = declared
        }
    }

    @Test("a local source lists NFC and NFD twins as two files, copies both to a byte-exact destination, and check counts 2")
    func twinsCopied() async throws {
        let source = try LocalTree()
        try source.writeExact(Self.nfc, "composed")
        try source.writeExact(Self.nfd, "decomposed, longer")
        let listed = try await source.provider.listAll(.root)
        #expect(listed.map { Array($0.name.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } == [Array(Self.nfc.utf8), Array(Self.nfd.utf8)].sorted { $0.lexicographicallyPrecedes($1) })

        let destination = try LocalTree()
        let manager = TransferManager(options: .testing())
        let report = try await manager.copy(from: source.endpoint, to: destination.endpoint)
        #expect(report.succeeded, "\(report.failures)")
        #expect(report.filesCopied == 2)
        #expect(try destination.readExact(Self.nfc) == "composed")
        #expect(try destination.readExact(Self.nfd) == "decomposed, longer")

        let check = try await manager.check(source.endpoint, against: destination.endpoint)
        #expect(check.isIdentical)
        #expect(check.matching == 2)
        #expect(check.names == "case-sensitive, byte-exact")
    }

    @Test("NFC and NFD twins onto a normalising destination: both conflicts, nothing copied or overwritten, not a success")
    func twinsOntoNormalisingDestination() async throws {
        let source = try LocalTree()
        try source.writeExact(Self.nfc, "composed")
        try source.writeExact(Self.nfd, "decomposed, longer")
        let tree = try LocalTree()
        try tree.writeExact(Self.nfc, "theirs")
        let destination = TransferEndpoint(DeclaredNames(tree.provider, NameRules(normalization: .nfc)))
        let manager = TransferManager(options: .testing())

        for sync in [false, true] {
            let report = sync
                ? try await manager.sync(from: source.endpoint, to: destination) : try await manager.copy(from: source.endpoint, to: destination)
            #expect(!report.succeeded)
            #expect(report.filesCopied == 0 && report.deleted == 0)
            #expect(report.failures.count == 2)
            #expect(report.failures.allSatisfy { $0.code == "conflict" })
            #expect(try tree.readExact(Self.nfc) == "theirs")
            #expect(!tree.existsExact(Self.nfd))
        }
        let check = try await manager.check(source.endpoint, against: destination)
        #expect(!check.isIdentical)
        #expect(check.nameConflicts.count == 2)
        #expect(check.matching == 0 && check.differing.isEmpty && check.extra.isEmpty)
        #expect(check.names == "case-sensitive, NFC")
    }

    @Test("A.txt and a.txt onto a case-insensitive destination: both conflicts; its a.txt is neither overwritten nor deleted")
    func caseTwinsOntoCaseInsensitiveDestination() async throws {
        let source = try LocalTree()
        try source.write("A.txt", "upper")
        try source.write("a.txt", "lower")
        let tree = try LocalTree()
        try tree.write("a.txt", "keep")
        let destination = TransferEndpoint(DeclaredNames(tree.provider, NameRules(caseSensitive: false)))
        let manager = TransferManager(options: .testing())

        for sync in [false, true] {
            let report = sync
                ? try await manager.sync(from: source.endpoint, to: destination) : try await manager.copy(from: source.endpoint, to: destination)
            #expect(!report.succeeded)
            #expect(report.filesCopied == 0 && report.deleted == 0)
            #expect(Set(report.failures.map(\.relativePath.description)) == ["/A.txt", "/a.txt"])
            #expect(report.failures.allSatisfy { $0.code == "conflict" && $0.message.contains("case-insensitive") })
            #expect(try tree.listing() == ["a.txt"])
            #expect(String(decoding: try tree.read("a.txt"), as: UTF8.self) == "keep")
        }
        let check = try await manager.check(source.endpoint, against: destination)
        #expect(check.nameConflicts.count == 2 && !check.isIdentical)
        #expect(check.names == "case-insensitive, byte-exact")
    }

    @Test("copy never overwrites the destination's NFD file with the source's NFC one: they are two names there")
    func neverOverwritesTheOtherSpelling() async throws {
        let source = try LocalTree()
        try source.writeExact(Self.nfc, "mine")
        let destination = try LocalTree()
        try destination.writeExact(Self.nfd, "theirs, not in the source")
        let manager = TransferManager(options: .testing())
        let report = try await manager.copy(from: source.endpoint, to: destination.endpoint)
        #expect(report.succeeded)
        #expect(report.filesCopied == 1)
        #expect(try destination.readExact(Self.nfd) == "theirs, not in the source")
        #expect(try destination.readExact(Self.nfc) == "mine")
        let check = try await manager.check(source.endpoint, against: destination.endpoint)
        #expect(check.matching == 1 && check.extra.map { Array($0.name.utf8) } == [Array(Self.nfd.utf8)])
    }
}

extension LocalTree {
    /// The path of `name` in the root, spelled byte for byte (no URL or Foundation conversion).
    private func exactPath(_ name: String) -> String { url.path + "/" + name }

    /// Writes `text` to the file `name` in the root, its name passed to the system as given.
    func writeExact(_ name: String, _ text: String) throws {
        let descriptor = open(exactPath(name), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// The text of the file `name` in the root, found by its exact bytes.
    func readExact(_ name: String) throws -> String {
        let descriptor = open(exactPath(name), O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// Whether the root holds a file named exactly `name`.
    func existsExact(_ name: String) -> Bool {
        var info = stat()
        return lstat(exactPath(name), &info) == 0
    }
}
