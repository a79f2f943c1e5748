import Foundation
import Testing
@testable import PydioTestServer

/// Replays the requests behind the pydio-core 8.2.5 recordings (REQUESTS.md
/// order) and compares every answer byte for byte after normalising times,
/// tokens, cookie ids, hashes and ids.
@Suite("Recordings of pydio-core 8.2.5")
struct RecordingReplayTests {
    @Test("01–39: the recorded session")
    func session() async throws {
        let replay = Replayer()
        try await withServer { _, client in
            try await Self.session(client, replay)
        }
        #expect(replay.covered == Set(Self.sessionNames), "not replayed: \(Set(Self.sessionNames).subtracting(replay.covered).sorted())")
    }

    static let sessionNames = [
        "01_unauth_ping", "02_unauth_registry", "03_get_seed", "04_login_bad_password", "05_login_ok", "06_no_token_error",
        "07_repositories", "08_user_registry", "09_ls_root", "10_mkdir", "11_mkdir_exists", "12_upload_xhr", "13_upload_overwrite",
        "14_upload_auto_rename", "15_upload_no_flag", "16_upload_error", "17_upload_put_stream", "18_mkfile", "19_rename",
        "20_mkdir_sub", "21_copy", "22_move", "23_ls_dir", "24_ls_dir_json", "25_ls_missing", "26_stat", "27_download",
        "28_download_missing", "29_search", "30_share_link", "31_share_data", "32_public_download", "33_unshare", "34_delete",
        "35_switch_repository", "36_get_secure_token", "37_logout", "38_after_logout_ls", "39_after_logout_registry",
    ]

    static func session(_ client: PydioClient, _ replay: Replayer) async throws {
        let hello = Data("hello pydio\n".utf8)
        let ping = try await client.get([("get_action", "ping")])
        try replay.check("01_unauth_ping", ping)
        #expect(ping.header("Set-Cookie")?.range(of: #"^AjaXplorer=[a-v0-9]{26}; path=/; HttpOnly$"#, options: .regularExpression) != nil)
        try replay.check("02_unauth_registry", try await client.get([("get_action", "get_xml_registry"), ("xPath", "user/repositories")]))
        try replay.check("03_get_seed", try await client.get([("get_action", "get_seed")]))
        try replay.check("04_login_bad_password", try await client.post([
            ("get_action", "login"), ("userid", "admin"), ("password", "wrong"), ("login_seed", "-1"),
        ]))
        let cookieBefore = client.cookies["AjaXplorer"]
        let login = try await client.post([("get_action", "login"), ("userid", "admin"), ("password", "admin"), ("login_seed", "-1")])
        try replay.check("05_login_ok", login)
        #expect(client.cookies["AjaXplorer"] != cookieBefore, "login regenerates the session id")
        client.token = PydioClient.attribute("secure_token", in: login.text) ?? ""
        let token = client.token
        try replay.check("06_no_token_error", try await client.get([("get_action", "get_xml_registry"), ("xPath", "user/repositories")]))
        try replay.check("07_repositories", try await client.get([
            ("get_action", "get_xml_registry"), ("xPath", "user/repositories"), ("secure_token", token),
        ]))
        try replay.check("08_user_registry", try await client.get([("get_action", "get_xml_registry"), ("xPath", "user"), ("secure_token", token)]))
        try replay.check("09_ls_root", try await client.action("ls", [("dir", "/"), ("options", "al")]))
        try replay.check("10_mkdir", try await client.postAction("mkdir", [("dir", "/"), ("dirname", "fixtures")]))
        try replay.check("11_mkdir_exists", try await client.postAction("mkdir", [("dir", "/"), ("dirname", "fixtures")]))
        try replay.check("12_upload_xhr", try await client.put("/fixtures", "hello.txt", hello))
        try replay.check("13_upload_overwrite", try await client.put("/fixtures", "hello.txt", hello))
        try replay.check("14_upload_auto_rename", try await client.put("/fixtures", "hello.txt", hello, extra: [("auto_rename", "true")]))
        try replay.check("15_upload_no_flag", try await client.upload([
            ("get_action", "upload"), ("tmp_repository_id", "1"), ("dir", "/fixtures"), ("secure_token", token),
        ], filename: "noflag.txt", data: hello))
        try replay.check("16_upload_error", try await client.put("/missing", "hello.txt", hello))
        try replay.check("17_upload_put_stream", try await client.send(
            "PUT", "index.php?" + PydioClient.encode([
                ("get_action", "upload"), ("tmp_repository_id", "1"), ("dir", "/fixtures"), ("input_stream", "true"),
                ("xhr_uploader", "true"), ("secure_token", token),
            ]), headers: [("X-File-Name", "put.txt")], body: hello))
        try replay.check("18_mkfile", try await client.postAction("mkfile", [("dir", "/fixtures"), ("filename", "new.txt"), ("content", "abc")]))
        try replay.check("19_rename", try await client.postAction("rename", [("file", "/fixtures/new.txt"), ("filename_new", "renamed.txt")]))
        try replay.check("20_mkdir_sub", try await client.postAction("mkdir", [("dir", "/fixtures"), ("dirname", "sub")]))
        try replay.check("21_copy", try await client.postAction("copy", [("dest", "/fixtures/sub"), ("nodes[]", "/fixtures/renamed.txt")]))
        try replay.check("22_move", try await client.postAction("move", [("dest", "/fixtures/sub"), ("file", "/fixtures/put.txt")]))
        try replay.check("23_ls_dir", try await client.action("ls", [("dir", "/fixtures"), ("options", "al")]))
        try replay.check("24_ls_dir_json", try await client.action("ls", [("dir", "/fixtures"), ("options", "al"), ("format", "json")]))
        try replay.check("25_ls_missing", try await client.action("ls", [("dir", "/missing"), ("options", "al")]))
        try replay.check("26_stat", try await client.action("stat", [("file", "/fixtures/hello.txt")]))
        let download = try await client.action("download", [("file", "/fixtures/hello.txt")])
        try replay.check("27_download", download)
        try replay.checkHeaders("27_download", download, ["Content-Disposition", "Content-Range", "Content-Length", "Accept-Ranges"])
        try replay.check("28_download_missing", try await client.action("download", [("file", "/fixtures/nope.txt")]))
        try replay.check("29_search", try await client.action("search", [("query", "hello")]))
        let share = try await client.postAction("share", [
            ("file", "/fixtures/hello.txt"), ("sub_action", "create_minisite"), ("create_guest_user", "true"),
            ("simple_right_download", "true"), ("simple_right_read", "true"),
        ])
        try replay.check("30_share_link", share)
        #expect(share.text.hasPrefix(client.root + "/public/"), "the public URL is below the server root, not B")
        let hash = String(share.text.split(separator: "/").last ?? "")
        try replay.check("31_share_data", try await client.postAction("load_shared_element_data", [
            ("file", "/fixtures/hello.txt"), ("element_type", "file"),
        ]))
        let publicDownload = try await client.send("GET", "public/\(hash)/dl/hello.txt")
        try replay.check("32_public_download", publicDownload)
        try replay.checkHeaders("32_public_download", publicDownload, ["Content-Disposition", "Content-Range"])
        try replay.check("33_unshare", try await client.postAction("unshare", [
            ("file", "/fixtures/hello.txt"), ("element_type", "file"), ("element_id", hash),
        ]))
        try replay.check("34_delete", try await client.postAction("delete", [("nodes[]", "/fixtures/hello-1.txt")]))
        try replay.check("35_switch_repository", try await client.post([
            ("get_action", "switch_repository"), ("repository_id", "1"), ("secure_token", token),
        ]))
        try replay.check("36_get_secure_token", try await client.get([("get_action", "get_secure_token")]))
        try replay.check("37_logout", try await client.post([("get_action", "logout"), ("secure_token", token)]))
        try replay.check("38_after_logout_ls", try await client.get([
            ("get_action", "ls"), ("tmp_repository_id", "1"), ("dir", "/"), ("secure_token", token),
        ]))
        try replay.check("39_after_logout_registry", try await client.get([("get_action", "get_xml_registry"), ("xPath", "user/repositories")]))
    }
}
