import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("Seeding")
struct SeedingTests {
    @Test("seedFiles makes File documents as an import would: listed, downloadable, clashing names suffixed")
    func seededFiles() async throws {
        try await withServer { server, client in
            let files = (0..<1500).map { (name: String(format: "entry-%05d.txt", $0), contents: Data(repeating: 0x78, count: $0 % 7)) }
            #expect(server.seedFiles(in: "/default-domain/workspaces/strata/seeded", files))
            var titles: [String] = []
            for page in 0..<2 {
                let json = try await client.send("GET", workspace + "/seeded/@children?pageSize=1000&currentPageIndex=\(page)").json()
                titles += (json["entries"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
            }
            #expect(titles == files.map(\.name))
            let blob = try await client.send("GET", workspace + "/seeded/entry-00006.txt/@blob/file:content")
            #expect(blob.status == 200)
            #expect(blob.body == Data(repeating: 0x78, count: 6))
            #expect(blob.header("Content-Type")?.hasPrefix("text/plain") == true)

            #expect(server.seedFiles(in: "/default-domain/workspaces/strata/seeded", [(name: "entry-00001.txt", contents: Data("again".utf8))]))
            var names: [String] = []
            for page in 0..<2 {
                let json = try await client.send("GET", workspace + "/seeded/@children?pageSize=1000&currentPageIndex=\(page)").json()
                names += (json["entries"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue?.split(separator: "/").last.map(String.init) }
            }
            #expect(names.count == 1501)
            #expect(names.filter { $0.hasPrefix("entry-00001.txt.") }.count == 1)
            #expect(!server.seedFiles(in: "/default-domain/workspaces/strata/seeded/entry-00002.txt", files))
        }
    }
}
