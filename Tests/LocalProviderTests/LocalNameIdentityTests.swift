import Foundation
import LocalProvider
import ProviderAPI
import ProviderKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("LocalProvider: names as the file system tells them apart")
struct LocalNameIdentityTests {
    static let nfc = "caf\u{E9}.txt"
    static let nfd = "cafe\u{301}.txt"

    /// Writes `text` to `name` in `folder`, the name passed to the system byte for byte.
    static func write(_ text: String, as name: String, in folder: TemporaryFolder) throws {
        let descriptor = open(folder.url.path + "/" + name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).write(contentsOf: Data(text.utf8))
    }

    @Test("NFC and NFD twins on ext4 are two files: both listed (in byte order: `e` + U+0301 before U+00E9), each found by its own name")
    func twinsListed() async throws {
        let folder = try TemporaryFolder()
        try Self.write("composed", as: Self.nfc, in: folder)
        try Self.write("decomposed, longer", as: Self.nfd, in: folder)
        let provider = try LocalProvider(root: folder.url)
        let listed = try await provider.listAll(.root)
        #expect(listed.map { Array($0.name.utf8) } == [Array(Self.nfd.utf8), Array(Self.nfc.utf8)])
        #expect(listed.map(\.size) == [18, 8])
        #expect(try await provider.item(at: ItemPath.root.appending(Self.nfd)).size == 18)
        #expect(try await provider.item(at: ItemPath.root.appending(Self.nfc)).size == 8)
    }

    @Test("the adapter declares what the file system does: on ext4 or tmpfs, case-sensitive and byte-exact, and a probe agrees")
    func declared() throws {
        let folder = try TemporaryFolder()
        let provider = try LocalProvider(root: folder.url)
        let names = provider.capabilities.names
        let probed = try LocalFolder.open(path: folder.url.path).probeNameIdentity()
        #expect(probed != nil)
        #expect(probed?.caseSensitive == names.caseSensitive)
        #expect(probed?.normalizationInsensitive == names.normalizationInsensitive)
        #if os(Linux)
            // The test folders are on ext4 or tmpfs without case folding.
            #expect(names.caseSensitive && !names.normalizationInsensitive && names.normalization == .preserved)
            #expect(names.identityDescription == "case-sensitive, byte-exact")
        #endif
        // The probe leaves nothing behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
