import Foundation
import Testing
@testable import NuxeoTestServer

@Suite("NXQL search")
struct SearchTests {
    /// NXQL string literal escaping as in spec §6.3.
    static func literal(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "\n", with: "\\n") + "'"
    }

    func titles(_ client: TestClient, _ nxql: String, extra: String = "", path: String = "/api/v1/search/execute") async throws -> [String] {
        let response = try await client.send("GET", "\(path)?query=\(FormDecoding.encodeComponent(nxql))&pageSize=100\(extra)")
        guard response.status == 200 else { throw TestClient.Failure(description: "\(response.status) \(response.text)") }
        let json = try response.json()
        #expect(json["resultsCount"]?.intValue == json["entries"]?.arrayValue?.count, "search gives real counts")
        return (json["entries"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    }

    @Test("escaping: quote, backslash, newline in a title")
    func escaping() async throws {
        try await withServer { _, client in
            let tricky = ["it's", "back\\slash", "two\nlines"]
            for title in tricky { try await client.create("Note", name: "n", title: title) }
            for title in tricky {
                let found = try await titles(client, "SELECT * FROM Document WHERE dc:title = \(Self.literal(title))")
                #expect(found == [title])
            }
            let doubled = try await client.send("GET", "/api/v1/search/execute?query=" + FormDecoding.encodeComponent(
                "SELECT * FROM Document WHERE dc:title = 'it''s'"))
            #expect(doubled.status == 400, "doubled quotes are not NXQL")
        }
    }

    @Test("LIKE / ILIKE with escaped %, NOT LIKE, IN, STARTSWITH, ancestorId, mixinType, ORDER BY, sortBy")
    func operators() async throws {
        try await withServer { _, client in
            let folder = try await client.create("Folder", name: "sub", title: "Sub")
            let folderUID = folder["uid"]?.stringValue ?? ""
            try await client.create("Note", name: "a", title: "100% sure")
            try await client.create("Note", name: "b", title: "100 percent")
            try await client.create("Note", name: "c", title: "Alpha", under: "/api/v1/id/\(folderUID)")
            let base = "SELECT * FROM Document WHERE ecm:path STARTSWITH '/default-domain/workspaces/strata'"
            #expect(try await titles(client, base + " AND dc:title LIKE '100\\%%'") == ["100% sure"])
            #expect(try await titles(client, base + " AND dc:title LIKE '100%' ORDER BY dc:title") == ["100 percent", "100% sure"])
            #expect(try await titles(client, base + " AND dc:title ILIKE 'al_ha'") == ["Alpha"])
            #expect(try await titles(client, base + " AND dc:title LIKE 'al_ha'") == [])
            #expect(try await titles(client, base + " AND dc:title NOT LIKE '100%' ORDER BY dc:title") == ["Alpha", "Sub"])
            #expect(try await titles(client, base + " AND dc:title IN ('Alpha', 'Sub') ORDER BY dc:title DESC") == ["Sub", "Alpha"])
            #expect(try await titles(client, "SELECT * FROM Document WHERE ecm:ancestorId = '\(folderUID)'") == ["Alpha"])
            #expect(try await titles(client, "SELECT * FROM Document WHERE ecm:path STARTSWITH '/default-domain/workspaces/strata/sub'") == ["Alpha"])
            #expect(try await titles(client, base + " AND ecm:mixinType = 'Folderish'") == ["Sub"])
            #expect(try await titles(client, base + " AND ecm:mixinType <> 'Folderish' AND NOT (dc:title = 'Alpha' OR dc:title LIKE '%sure') ") == ["100 percent"])
            #expect(try await titles(client, "SELECT * FROM Folder WHERE ecm:isTrashed = 0 AND ecm:isVersion = 0 AND ecm:isProxy = 0 AND dc:title IS NOT NULL AND ecm:parentId = '\(folder["parentRef"]?.stringValue ?? "")'") == ["Sub"])
            // sortBy without sortOrder is DESCENDING (spec §2.4).
            #expect(try await titles(client, base + " AND ecm:primaryType = 'Note'", extra: "&sortBy=dc:title") == ["Alpha", "100% sure", "100 percent"])
            #expect(try await titles(client, base + " AND ecm:primaryType = 'Note'", extra: "&sortBy=dc:title&sortOrder=asc") == ["100 percent", "100% sure", "Alpha"])
            #expect(try await titles(client, base + " AND ecm:primaryType = 'Note' ORDER BY dc:title", path: "/api/v1/search/lang/NXQL/execute").count == 3)
            #expect(try await titles(client, base + " AND ecm:primaryType = 'Note' ORDER BY dc:title", path: "/api/v1/query").count == 3)
        }
    }

    @Test("dates, fulltext (title and blob text, prefix), paging with real counts, malformed → 400")
    func fulltextDatesPaging() async throws {
        try await withServer { _, client in
            try await client.createFile(name: "report.txt", content: Data("Quarterly Numbers inside".utf8))
            try await client.create("Note", name: "n", title: "Meeting notes")
            let base = "SELECT * FROM Document WHERE ecm:path STARTSWITH '/default-domain/workspaces/strata'"
            #expect(try await titles(client, base + " AND ecm:fulltext = 'quarterly numb*'") == ["report.txt"])
            #expect(try await titles(client, base + " AND ecm:fulltext = 'MEETING'") == ["Meeting notes"])
            #expect(try await titles(client, base + " AND ecm:fulltext = 'meeting absent'") == [])
            #expect(try await titles(client, base + " AND dc:modified > TIMESTAMP '2000-01-01 00:00:00.000' ORDER BY dc:title").count == 2)
            #expect(try await titles(client, base + " AND dc:modified > TIMESTAMP '2999-01-01T00:00:00.000Z'") == [])
            #expect(try await titles(client, base + " AND dc:created >= DATE '2000-01-01'").count == 2)
            #expect(try await titles(client, base + " AND file:content/name = 'report.txt' AND file:content/length = 24") == ["report.txt"])
            let page = try await client.send("GET", "/api/v1/search/execute?query=\(FormDecoding.encodeComponent(base + " ORDER BY dc:title"))&pageSize=1&currentPageIndex=1").json()
            #expect(page["resultsCount"] == .int(2))
            #expect(page["numberOfPages"] == .int(2))
            #expect(page["isNextPageAvailable"] == .bool(false))
            #expect(page["entries"]?[0]?["title"] == .string("report.txt"))
            for bad in ["SELECT * FROM", "SELECT * FROM Document WHERE dc:title = 'open", "SELECT * FROM Document WHERE (dc:title = 'a'", "DELETE FROM x"] {
                let response = try await client.send("GET", "/api/v1/search/execute?query=\(FormDecoding.encodeComponent(bad))")
                #expect(response.status == 400)
                #expect(try response.json()["entity-type"] == .string("exception"))
            }
            let query = try await client.sendJSON("POST", "/api/v1/automation/Repository.Query",
                "{\"params\":{\"query\":\"\(base) AND ecm:primaryType = 'Note'\",\"pageSize\":\"10\"}}")
            #expect(try query.json()["entries"]?.arrayValue?.count == 1)
        }
    }
}
