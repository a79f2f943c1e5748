import Foundation
import NextcloudTestServer
import ProviderAPI
import Testing
import WebDAVProvider

/// Nextcloud and ownCloud store every name in NFC: the items the adapter returns are named as the
/// server holds them, whatever spelling the caller used.
@Suite("Names as the server stores them")
struct StoredNameTests {
    static func scalars(_ name: String) -> [UInt32] { name.unicodeScalars.map(\.value) }

    @Test("upload, createFolder and item(at:) of an NFD name return the NFC name the server stored and lists", arguments: [
        WebDAVDialect.Flavor.nextcloud, .owncloud,
    ])
    func nfdNamesComeBackNFC(flavor: WebDAVDialect.Flavor) async throws {
        let cloud = try await LoopbackNextcloud.start(flavor: flavor)
        defer { Task { await cloud.stop() } }
        let (provider, _) = try await cloud.scratch()
        let nfd = "Cafe\u{301}"
        let nfc = "Caf\u{E9}"
        let folder = try await provider.createFolder(named: nfd, in: .root)
        #expect(provider.capabilities.names.normalization == .nfc)
        #expect(Self.scalars(folder.name) == Self.scalars(nfc))
        let file = try await provider.upload(DataSource(string: "x"), to: folder.path, name: nfd + ".txt", options: UploadOptions())
        #expect(Self.scalars(file.name) == Self.scalars(nfc + ".txt"))
        #expect(Self.scalars(file.path.parent.name) == Self.scalars(nfc))
        let asked = try ItemPath.root.appending(nfd).appending(nfd + ".txt")
        let stat = try await provider.item(at: asked)
        #expect(Self.scalars(stat.name) == Self.scalars(nfc + ".txt"))
        #expect(stat.path.segments.map(Self.scalars) == [Self.scalars(nfc), Self.scalars(nfc + ".txt")])
        let listed = try await provider.list(folder.path, page: PageRequest()).items
        #expect(listed.map { Self.scalars($0.name) } == [Self.scalars(nfc + ".txt")])
        #expect(listed.first?.path == stat.path, "the listing and item(at:) agree on the path, byte for byte")
    }
}
