import Foundation
import Testing
@testable import PydioTestServer

/// Recordings 40–45 and the extras 90–98, plus the check that every
/// recording in the fixture directory is replayed by this suite (46–60: ``SecondRunReplayTests``).
@Suite("Recordings of pydio-core 8.2.5, later and extras")
struct RecordingExtrasTests {
    /// The names of 42, one upload each (`ü` sent decomposed, stored composed).
    static let specialNames = [
        "a b.txt", "a!b.txt", "a#b.txt", "a$b.txt", "a%b.txt", "a&b.txt", "a'b.txt", "a(b.txt", "a*b.txt", "a+b.txt",
        "a,b.txt", "a:b.txt", "a;b.txt", "a<b.txt", "a=b.txt", "a>b.txt", "a@b.txt", "a[b.txt", "a^b.txt", "a`b.txt",
        "a{b.txt", "a~b.txt", "au\u{0308}b.txt", "a😀b.txt",
    ]

    @Test("40–45 and 98: names, range, stat of a folder, ls of a file, permanent delete")
    func names() async throws {
        let replay = Replayer()
        try await withServer { _, client in
            try await RecordingReplayTests.session(client, Replayer())
            try await client.login()
            _ = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "names")])
            try replay.check("40_mkdir_unicode", try await client.postAction("mkdir", [("dir", "/names"), ("dirname", "dossier ü 日本 😀")]))
            let special = "names ü & é #%?+;=@' \"q\".txt"
            try replay.check("41_upload_special_name", try await client.upload([
                ("get_action", "upload"), ("tmp_repository_id", "1"), ("dir", "/names"), ("xhr_uploader", "true"),
                ("urlencoded_filename", PydioClient.encode([("", special)]).dropFirst().description), ("secure_token", client.token),
            ], filename: "blob", data: Data("abc".utf8)))
            for name in Self.specialNames + ["a?b.txt", "a\"b.txt", "a|b.txt", "a\\b.txt", " lead.txt", ".hidden"] {
                let twice = PydioClient.encode([("", name)]).dropFirst().description
                _ = try await client.upload([
                    ("get_action", "upload"), ("tmp_repository_id", "1"), ("dir", "/names"), ("xhr_uploader", "true"),
                    ("urlencoded_filename", twice), ("secure_token", client.token),
                ], filename: "blob", data: Data("abc".utf8))
            }
            try replay.check("42_ls_special_names", try await client.action("ls", [("dir", "/names"), ("options", "al")]))
            let range = try await client.action("download", [("file", "/fixtures/hello.txt")], headers: [("Range", "bytes=2-5")])
            try replay.check("43_download_range", range)
            try replay.checkHeaders("43_download_range", range, ["Content-Range", "Content-Length"])
            try replay.check("44_stat_folder", try await client.action("stat", [("file", "/names")]))
            try replay.check("45_ls_file_not_folder", try await client.action("ls", [("dir", "/fixtures/hello.txt"), ("options", "al")]))
            try replay.check("98_delete_permanent", try await client.postAction("delete", [("nodes[]", "/recycle_bin/hello-1.txt")]))
        }
        #expect(replay.covered.count == 7)
    }

    @Test("90–92 and 96: pagination page 2, empty selection, rename clash, background delete")
    func extras() async throws {
        let replay = Replayer()
        try await withServer({ $0.backgroundTaskBytes = 1000 }) { server, client in
            try await client.login()
            server.seedFolder(workspace: "1", path: "/big")
            for index in 1...510 {
                server.seedFile(workspace: "1", path: String(format: "/big/f%03d.txt", index), contents: Data("data".utf8))
            }
            try replay.check("90_ls_paginated_page2", try await client.send("GET", "index.php?get_action=ls&tmp_repository_id=1"
                + "&dir=%2Fbig%25232&options=al&secure_token=\(client.token)"))
            try replay.check("91_delete_empty_selection", try await client.postAction("delete"))
            _ = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "target")])
            _ = try await client.put("/target", "hello.txt", Data("hello pydio\n".utf8))
            _ = try await client.put("/target", "other.txt", Data("x".utf8))
            try replay.check("92_rename_exists", try await client.postAction("rename", [
                ("file", "/target/other.txt"), ("filename_new", "hello.txt"),
            ]))
            _ = try await client.put("/target", "large.bin", Data(repeating: 7, count: 2000))
            try replay.check("96_delete_background_task", try await client.postAction("delete", [("nodes[]", "/target/large.bin")]))
        }
        #expect(replay.covered.count == 4)
    }

    @Test("93–95 and 97: captcha after the 3rd failure, captcha seed, remember-me login, captcha image")
    func captcha() async throws {
        let replay = Replayer()
        try await withServer { server, client in
            _ = try await client.get([("get_action", "get_seed")])
            for attempt in 1...3 {
                let answer = try await client.post([("get_action", "login"), ("userid", "admin"), ("password", "bad"), ("login_seed", "-1")])
                if attempt == 3 { try replay.check("93_login_captcha_required", answer) }
            }
            try replay.check("94_get_seed_captcha", try await client.get([("get_action", "get_seed")]))
            let image = try await client.get([("get_action", "get_captcha")])
            #expect(image.header("Content-Type") == "image/png")
            let recorded = try Recordings.data("97_get_captcha", "png")
            #expect(image.body.prefix(8) == recorded.prefix(8), "PNG signature")
            #expect(image.body.subdata(in: 12..<24) == recorded.subdata(in: 12..<24), "IHDR: same size (170×80) as the recording")
            replay.markCovered("97_get_captcha")
            try replay.check("95_login_remember_me", try await client.post([
                ("get_action", "login"), ("userid", "admin"), ("password", "admin"), ("login_seed", "-1"),
                ("captcha_code", server.faults.captchaWord), ("remember_me", "true"),
            ]))
        }
        #expect(replay.covered.count == 4)
    }

    @Test("every recording in the fixture directory is replayed by this suite")
    func coverage() throws {
        let replayed = Set(RecordingReplayTests.sessionNames + [
            "40_mkdir_unicode", "41_upload_special_name", "42_ls_special_names", "43_download_range", "44_stat_folder",
            "45_ls_file_not_folder", "98_delete_permanent", "90_ls_paginated_page2", "91_delete_empty_selection",
            "92_rename_exists", "96_delete_background_task", "93_login_captcha_required", "94_get_seed_captcha",
            "95_login_remember_me", "97_get_captcha",
        ] + SecondRunReplayTests.names)
        let present = try Recordings.allNames()
        #expect(present.count >= 54, "fixture directory incomplete: \(Recordings.directory.path)")
        #expect(present.subtracting(replayed).isEmpty, "recordings nobody replays: \(present.subtracting(replayed).sorted())")
        #expect(replayed.subtracting(present).isEmpty, "replayed recordings missing from the fixtures: \(replayed.subtracting(present).sorted())")
    }
}
