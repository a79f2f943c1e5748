import Foundation
import ProviderAPI
import Testing

/// `strata sync` and `strata check` run again on an unchanged tree between two folders of the
/// loopback Nextcloud server: the job kept each folder's etags in the cache folder, so the second
/// run lists no folder (requests read from the server's own log).
@Suite("strata sync and check again over recursive folder etags")
struct ResyncCLITests {
    @Test("the second sync and the second check of an unchanged tree list no folder: one PROPFIND of each root")
    func secondRunListsNothing() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        _ = try await provider.createFolder(named: "src", in: .root)
        try await CacheRefreshTests.makeTree(try await cloud.provider(folder: folder + "/src"))
        let directory = try CacheRefreshTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = cloud.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://").trimmingSuffix("/")
        let ends = ["\(base)/\(folder)/src", "\(base)/\(folder)/dst"]
        let common = ["--cache", directory.path, "-u", LoopbackNextcloud.user]

        for command in ["sync", "check"] {
            let first = try await CLITests.run([command] + ends + common)
            #expect(first.status == 0, "\(first.error)")
            cloud.server.resetRequests()
            let second = try await CLITests.run([command] + ends + common)
            #expect(second.status == 0, "\(second.error)")
            let propfinds = cloud.server.requests().filter { $0.method == "PROPFIND" }
            let listings = propfinds.filter { $0.header("Depth") != "0" }
            #expect(listings.isEmpty, "\(command): \(listings.map(\.path))")
            let roots = propfinds.filter { $0.path.hasSuffix("/\(folder)/src") || $0.path.hasSuffix("/\(folder)/dst") }
            #expect(roots.count == 2, "\(command): \(propfinds.map(\.path))")
            let output = String(decoding: second.output, as: UTF8.self)
            #expect(output.contains(command == "sync" ? "2 unchanged" : "2 matching"), "\(output)")
        }
    }
}
