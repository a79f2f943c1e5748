import Foundation
import Testing
@testable import PydioTestServer

/// Recordings 46–60 (the second run, in `/fx2`), replayed in REQUESTS.md order: empty files,
/// decomposed names, Lucene's term limit, a link's expiry and password, PHP's headers.
@Suite("Recordings of pydio-core 8.2.5, second run")
struct SecondRunReplayTests {
    static let names = [
        "46_upload_empty_file", "47_mkfile_empty", "48_ls_after_mkfile", "49_upload_nfd_name", "50_ls_after_nfd_upload",
        "51_download_nfd_path", "51b_download_nfc_path", "52_mkdir_nfd", "53_ls_after_nfd_mkdir", "54_search_many_terms",
        "55_search_many_terms_root", "56_share_link_with_expiry_password", "57_share_data_expiry_password", "58_ls_headers",
        "59_download_headers", "60_search_fulltext_noindex",
    ]

    /// The name sent twice percent-encoded in `urlencoded_filename`, as recordings 41 and 49 do.
    static func encodedTwice(_ name: String) -> String {
        PydioClient.encode([("", name)]).dropFirst().description
    }

    @Test("46–60: empty upload and mkfile, NFD names, term limit, link expiry and password, headers, no content index")
    func secondRun() async throws {
        let replay = Replayer()
        // The second run's Pydio was the whole site: public links are below the base.
        try await withServer({ $0.publicLinksBelowBase = true }) { server, client in
            try await client.login()
            _ = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "fx2")])
            let ls = { try await client.action("ls", [("dir", "/fx2"), ("options", "al")]) }

            try replay.check("46_upload_empty_file", try await client.put("/fx2", "empty.txt", Data()))
            try replay.check("47_mkfile_empty", try await client.postAction("mkfile", [("dir", "/fx2"), ("filename", "empty.txt")]))
            try replay.check("48_ls_after_mkfile", try await ls())

            let decomposed = "cafe\u{301}.txt"
            try replay.check("49_upload_nfd_name", try await client.upload([
                ("get_action", "upload"), ("tmp_repository_id", "1"), ("dir", "/fx2"), ("xhr_uploader", "true"),
                ("urlencoded_filename", Self.encodedTwice(decomposed)), ("secure_token", client.token),
            ], filename: "blob", data: Data("nfd\n".utf8)))
            try replay.check("50_ls_after_nfd_upload", try await ls())
            try replay.check("51_download_nfd_path", try await client.action("download", [("file", "/fx2/" + decomposed)]))
            let nfc = try await client.action("download", [("file", "/fx2/caf\u{E9}.txt")])
            try replay.check("51b_download_nfc_path", nfc)
            try replay.checkHeaders("51b_download_nfc_path", nfc, ["Content-Disposition", "Content-Range", "Content-Length", "Accept-Ranges"])

            let folder = "dossier-e\u{301}"
            try replay.check("52_mkdir_nfd", try await client.postAction("mkdir", [("dir", "/fx2"), ("dirname", folder)]))
            let afterMkdir = try await ls()
            try replay.check("53_ls_after_nfd_mkdir", afterMkdir)
            #expect(afterMkdir.body.range(of: Data("dossier-e\u{301}".utf8)) != nil, "the folder name is stored decomposed")

            // 1,100 indexed files in /many; m-0007.txt uploaded (mode 0600, as recorded), the rest seeded.
            for index in 0..<1_100 where index != 7 {
                server.seedFile(workspace: "1", path: String(format: "/many/m-%04d.txt", index), contents: Data("m\n".utf8))
            }
            _ = try await client.put("/many", "m-0007.txt", Data("m\n".utf8))
            try replay.check("54_search_many_terms", try await client.action("search", [
                ("query", "m-0007"), ("current_dir", "/many"), ("limit", "400"),
            ]))
            try replay.check("55_search_many_terms_root", try await client.action("search", [("query", "m-0007"), ("limit", "400")]))

            _ = try await client.put("/fx2", "shared.txt", Data("shared!!\n".utf8))
            let link = try await client.postAction("share", [
                ("file", "/fx2/shared.txt"), ("sub_action", "create_minisite"), ("create_guest_user", "true"),
                ("simple_right_download", "true"), ("simple_right_read", "true"), ("expiration", "7"), ("guest_user_pass", "p4ss-w0rd"),
            ])
            try replay.check("56_share_link_with_expiry_password", link)
            #expect(link.text.hasPrefix(client.base + "public/"), "the link is below the base, as recorded")
            let data = try await client.postAction("load_shared_element_data", [("file", "/fx2/shared.txt"), ("element_type", "file")])
            try replay.check("57_share_data_expiry_password", data)
            let week = Date().addingTimeInterval(7 * 86_400)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy/MM/dd"
            #expect(data.text.contains("\"expire_time\":\"\(formatter.string(from: week)) "), "expires 7 days from now: \(data.text)")

            let headers = try await ls()
            try replay.check("58_ls_headers", headers)
            try replay.checkHeaders("58_ls_headers", headers, ["Content-Length", "Connection"])

            var random = SystemRandomNumberGenerator()
            let big = Data((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) })
            _ = try await client.put("/fx2", "big3.bin", big)
            let download = try await client.action("download", [("file", "/fx2/big3.bin")])
            try replay.checkHeaders("59_download_headers", download, [
                "Content-Type", "Content-Transfer-Encoding", "Content-Length", "Content-Range", "Content-Disposition", "Accept-Ranges",
            ])
            #expect(download.status == 200 && download.body == big, "the whole file, as uploaded")
            replay.markCovered("59_download_headers")

            _ = try await client.put("/fx2", "zebra-note.txt", Data("a note about the zebraquagga\n".utf8))
            try replay.check("60_search_fulltext_noindex", try await client.action("search", [
                ("query", "zebraquagga"), ("fields", "filename,ajxp_document_content"), ("limit", "400"),
            ]))
        }
        #expect(replay.covered == Set(Self.names), "not replayed: \(Set(Self.names).subtracting(replay.covered).sorted())")
    }

    @Test("mkfile refuses an existing name unless forced, and overwrites with force; a search at the root is not term-limited")
    func mkfileAndTerms() async throws {
        try await withServer { server, client in
            try await client.login()
            _ = try await client.put("/", "a.txt", Data("abc".utf8))
            let clash = try await client.postAction("mkfile", [("dir", "/"), ("filename", "A.txt")])
            #expect(clash.text.contains("<message type=\"ERROR\">This file already exists"))
            let forced = try await client.postAction("mkfile", [("dir", "/"), ("filename", "a.txt"), ("force", "true")])
            #expect(forced.text.contains("<update>") && forced.text.contains("bytesize=\"0\""))
            for index in 0..<1_025 { server.seedFile(workspace: "1", path: "/big/f\(index).txt", contents: Data("x".utf8)) }
            let scoped = try await client.action("search", [("query", "f1000"), ("current_dir", "/big")])
            #expect(scoped.text.contains("Terms per query limit is reached."))
            let root = try await client.action("search", [("query", "f1000"), ("current_dir", "/")])
            #expect(root.text.contains("filename=\"/big/f1000.txt\""))
        }
    }

    @Test("decomposed and precomposed names are two nodes: a folder of each can exist side by side")
    func twoSpellings() async throws {
        try await withServer { _, client in
            try await client.login()
            let made = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "e\u{301}t\u{E9}")])
            #expect(made.text.contains("SUCCESS"))
            let again = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "\u{E9}t\u{E9}")])
            #expect(again.text.contains("SUCCESS"), "a byte-different name is a new folder: \(again.text)")
            let listing = try await client.action("ls", [("dir", "/"), ("options", "al")])
            #expect(listing.text.components(separatedBy: "is_file=\"false\"").count - 1 == 4, "the root, two folders and the recycle bin")
        }
    }
}
