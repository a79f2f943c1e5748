import Foundation
import ProviderAPI
import PydioProvider
import PydioTestServer
import Testing

/// Uploads placed through `UploadPlacement`: the contract's rule that a file never replaces a folder.
@Suite("Pydio upload placement")
struct PydioPlacementTests {
    @Test("an upload with .overwrite onto a folder's name is alreadyExists, and the folder keeps its files (in parts, whole, empty)")
    func neverOverAFolder() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch(options: ["chunkSize": "4096"])
        _ = try await provider.createFolder(named: "d", in: .root)
        _ = try await provider.upload(DataSource(string: "keep me"), to: "/d", name: "inside.txt", options: UploadOptions())
        // The server's last part renames the `.dlpart` over whatever has the name: before, that was the folder.
        for bytes in [patternBytes(10_000), Array("small".utf8), []] {
            let error = await #expect(throws: ProviderError.self) {
                _ = try await provider.upload(DataSource(bytes: bytes), to: .root, name: "d", options: UploadOptions(conflict: .overwrite))
            }
            #expect(error?.code == .alreadyExists, "\(bytes.count) bytes: \(String(describing: error))")
            #expect(try await provider.item(at: "/d").kind == .folder)
            #expect(try await provider.listAll("/d").map(\.name) == ["inside.txt"])
        }
    }
}
