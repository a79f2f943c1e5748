import Foundation
import Testing
@testable import PydioTestServer

@Suite("ls")
struct ListingTests {
    func names(_ text: String) -> [String] {
        text.components(separatedBy: "<tree ").dropFirst(2).compactMap { PydioClient.attribute("filename", in: " " + $0) }
    }

    @Test("510 entries: pages of 200, 200, 110 selected with dir=<path>%23<page>")
    func pagination() async throws {
        try await withServer { server, client in
            try await client.login()
            server.seedFolder(workspace: "1", path: "/big")
            for index in 1...505 { server.seedFile(workspace: "1", path: "/big/f\(index).txt", contents: Data("data".utf8)) }
            for index in 1...5 { server.seedFolder(workspace: "1", path: "/big/D\(index)") }
            var seen: [String] = []
            for page in 1...3 {
                let answer = try await client.send("GET", "index.php?get_action=ls&tmp_repository_id=1&dir=%2Fbig%2523\(page)"
                    + "&options=al&secure_token=\(client.token)")
                #expect(answer.text.contains("<pagination count=\"510\" total=\"3\" current=\"\(page)\" overflowMessage=\"\(page)/3\""
                    + " icon=\"folder.png\" openicon=\"folder_open.png\" dirsCount=\"5\" remote_order='true'"))
                let listed = names(answer.text.replacingOccurrences(of: "<pagination ", with: "<tree x=\"\" "))
                #expect(listed.count == (page == 3 ? 110 : 200))
                seen += listed
            }
            #expect(Array(seen.prefix(6)) == ["/big/D1", "/big/D2", "/big/D3", "/big/D4", "/big/D5", "/big/f1.txt"])
            #expect(seen[6] == "/big/f2.txt" && seen.last == "/big/f505.txt", "natural, case-insensitive order")
            #expect(Set(seen).count == 510)
            // Only the literal %23 marks a page: a decoded "#" is part of the name.
            let hashForm = try await client.action("ls", [("dir", "/big#2"), ("options", "al")])
            #expect(!hashForm.text.contains("current=\"2\""))
        }
    }

    @Test("a native app gets no pagination element for a single page; a browser does")
    func singlePage() async throws {
        try await withServer({ $0.paginationThreshold = 3; $0.pageSize = 100 }) { server, client in
            try await client.login()
            for index in 1...5 { server.seedFile(workspace: "1", path: "/few/\(index).txt", contents: Data()) }
            #expect(try await !client.action("ls", [("dir", "/few")]).text.contains("<pagination"))
            client.userAgent = "Mozilla/5.0"
            #expect(try await client.action("ls", [("dir", "/few")]).text.contains("<pagination count=\"5\" total=\"1\""))
        }
    }

    @Test("folders first, recycle bin last at the root; options=d and f filter; nodes[] selects")
    func ordering() async throws {
        try await withServer { _, client in
            try await client.login()
            _ = try await client.put("/", "b.txt", Data("1".utf8))
            _ = try await client.put("/", "A.txt", Data("1".utf8))
            _ = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "zeta")])
            let root = try await client.action("ls", [("dir", "/"), ("options", "al")])
            #expect(names(root.text) == ["/zeta", "/A.txt", "/b.txt", "/recycle_bin"])
            #expect(names(try await client.action("ls", [("dir", "/"), ("options", "d")]).text) == ["/zeta", "/recycle_bin"])
            #expect(names(try await client.action("ls", [("dir", "/"), ("options", "f")]).text) == ["/A.txt", "/b.txt"])
            let selected = try await client.action("ls", [("nodes[]", "/b.txt"), ("nodes[]", "/missing")])
            #expect(selected.text.contains("<tree filename=\"/\" text=\"\" is_file=\"true\"><tree is_file=\"true\" text=\"b.txt\""))
            #expect(try await client.action("stat", [("file", "/nope")]).text == "{}")
        }
    }
}
