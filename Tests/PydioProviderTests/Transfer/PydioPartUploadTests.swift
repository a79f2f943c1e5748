import Foundation
import NIOCore
import ProviderAPI
import Testing
@testable import PydioProvider
import ProviderKit

@Suite("Pydio uploads in parts on the loopback server")
struct PydioPartUploadTests {
    @Test("a file uploaded in parts from disk lands with its SHA-256, whatever the part size against the read size", arguments: [
        65_536, 100_000, 1 << 20,
    ])
    func fileInParts(_ partSize: Int) async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch(options: ["chunkSize": String(partSize)])
        let bytes = patternBytes((2 << 20) + 4_321, seed: 9)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pydio-\(UUID().uuidString).bin")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let item = try await provider.upload(try FileSource(url: file), to: .root, name: "parts.bin", options: UploadOptions())
        #expect(item.size == Int64(bytes.count))
        let parts = pydio.server.requests().filter { $0.action == "upload" && $0.parameter("partial_upload") == "true" }
        #expect(parts.count == (bytes.count + partSize - 1) / partSize)
        let sink = MemorySink()
        _ = try await provider.download(item.path, to: sink, options: DownloadOptions())
        let got = await sink.bytes
        #expect(got.count == bytes.count)
        #expect(Digester.hex(.sha256, of: got) == Digester.hex(.sha256, of: bytes))
    }
}
