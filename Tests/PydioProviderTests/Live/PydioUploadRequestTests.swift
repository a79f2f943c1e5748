import Foundation
import ProviderAPI
import PydioProvider
import PydioTestServer
import Testing

/// What an upload asks the server: the name is looked at (Pydio writes nothing exclusively, and
/// its upload would put a file over a folder), then written; the folder is looked at only when
/// the upload fails, for the reason.
@Suite("Pydio upload requests")
struct PydioUploadRequestTests {
    @Test("a new file and a file over an older one each cost one look at the name and one upload; the folder is not listed first")
    func oneLookOneUpload() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        _ = try await provider.createFolder(named: "d", in: .root)
        for (text, conflict) in [("first", ConflictPolicy.fail), ("second", .overwrite)] {
            pydio.server.resetRequests()
            _ = try await provider.upload(DataSource(string: text), to: "/d", name: "a.txt", options: UploadOptions(conflict: conflict))
            let actions = pydio.server.requests().map(\.action)
            #expect(actions == ["ls", "upload"], "\(conflict): \(actions)")
        }
        #expect(try await provider.data(at: "/d/a.txt", limit: 100) == Data("second".utf8))
    }

    @Test("an upload into a missing folder is notFound, into a file invalidArgument, and the file is left as it was")
    func folderLookedAtOnFailure() async throws {
        let pydio = try await LoopbackPydio.start()
        defer { Task { await pydio.stop() } }
        let provider = try await pydio.scratch()
        _ = try await provider.upload(DataSource(string: "keep"), to: .root, name: "f.txt", options: UploadOptions())
        for bytes in [Array("x".utf8), []] {
            let missing = await #expect(throws: ProviderError.self) {
                _ = try await provider.upload(DataSource(bytes: bytes), to: "/nowhere", name: "a.txt", options: UploadOptions())
            }
            #expect(missing?.code == .notFound, "\(bytes.count) bytes: \(String(describing: missing))")
            let file = await #expect(throws: ProviderError.self) {
                _ = try await provider.upload(DataSource(bytes: bytes), to: "/f.txt", name: "a.txt", options: UploadOptions(conflict: .overwrite))
            }
            #expect(file?.code == .invalidArgument, "\(bytes.count) bytes: \(String(describing: file))")
        }
        #expect(try await provider.data(at: "/f.txt", limit: 100) == Data("keep".utf8))
        #expect(try await provider.listAll(.root).map(\.name) == ["f.txt"])
    }
}
