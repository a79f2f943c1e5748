import Foundation
import NIOHTTP1
import ProviderAPI
import PydioProvider
import Testing
import ProviderKit
import HTTPProviderKit

/// Every recording of pydio-core 8.2.5 and of the Pydio 5 SDK, read through the recognizer chains.
@Suite("Pydio recordings through the recognizer chains")
struct PydioRecordingTests {
    typealias R = PydioRecognizers

    private func signIn<T>(_ chain: ResponseRecognizerChain<T>, _ answer: RecognizableAnswer) throws -> ProviderError? {
        if case .signInRequired(let error) = try chain.recognize(answer) { return error }
        return nil
    }

    private func failure<T>(_ chain: ResponseRecognizerChain<T>, _ answer: RecognizableAnswer) throws -> ProviderError? {
        if case .failure(let error) = try chain.recognize(answer) { return error }
        return nil
    }

    @Test("not signed in: require_auth and the empty repositories registry ask for a sign-in")
    func notSignedIn() throws {
        for name in ["01_unauth_ping", "38_after_logout_ls"] {
            #expect(try signIn(R.chain(R.change), PydioFixtures.live(name))?.underlying == "session", "\(name)")
        }
        for name in ["02_unauth_registry", "39_after_logout_registry"] {
            #expect(try signIn(R.chain(R.workspaces), PydioFixtures.live(name))?.underlying == "session", "\(name)")
        }
        for file in ["unathorized_response.xml", "unathorized_response2.xml"] {
            #expect(try signIn(R.chain(R.workspaces), PydioFixtures.sdk(file)) != nil, "\(file)")
        }
        #expect(try signIn(R.chain(R.workspaces), PydioFixtures.live("06_no_token_error"))?.underlying == "token")
    }

    @Test("seed, login, captcha, token and logout")
    func login() throws {
        #expect(try R.chain(R.seed).value(of: PydioFixtures.live("03_get_seed")) == .seed("-1"))
        #expect(try R.chain(R.seed).value(of: PydioFixtures.live("94_get_seed_captcha")) == .captchaRequired(seed: "-1"))
        #expect(try R.chain(R.login).value(of: PydioFixtures.live("04_login_bad_password")).value == -1)
        let ok = try R.chain(R.login).value(of: PydioFixtures.live("05_login_ok"))
        #expect(ok.value == 1 && ok.secureToken?.count == 32)
        #expect(try R.chain(R.login).value(of: PydioFixtures.live("95_login_remember_me")).secureToken?.count == 32)
        #expect(try R.chain(R.login).value(of: PydioFixtures.live("93_login_captcha_required")).value == -4)
        #expect(try R.chain(R.login).value(of: PydioFixtures.live("37_logout")).value == 2)
        #expect(try R.chain(R.login).value(of: PydioFixtures.sdk("login_response.xml")).secureToken == "2w70XYorR6AgEWZaEUggf5NHun4ZZEPj")
        #expect(try R.chain(R.text).value(of: PydioFixtures.live("36_get_secure_token")).count == 32)
        // The login answer's cookie replaces the session cookie.
        let jar = CookieJar()
        let url = URL(string: "http://127.0.0.1:8090/index.php")!
        jar.store(try PydioFixtures.live("05_login_ok").headers, from: url)
        #expect(jar.value("AjaXplorer", for: url) == "n2oq72vje1rfji67rf25qhl29v")
        let png = try PydioFixtures.data("live-8.2.5/97_get_captcha.png")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("workspaces: ids, slugs, labels; only file workspaces are browsable")
    func workspaces() throws {
        let live = try R.chain(R.workspaces).value(of: PydioFixtures.live("07_repositories"))
        #expect(live.first { $0.id == "1" }?.slug == "my-files")
        #expect(live.first { $0.id == "1" }?.label == "My Files")
        #expect(live.filter(\.holdsFiles).map(\.id) == ["0", "1"])
        #expect(try !R.chain(R.workspaces).value(of: PydioFixtures.live("08_user_registry")).isEmpty)
        let sdk = try R.chain(R.workspaces).value(of: PydioFixtures.sdk("get_registers_response.xml"))
        #expect(sdk.first?.id == "0" && sdk.first?.label == "Common Files")
    }

    @Test("listings: nodes, the recycle bin, pages, escaped and Unicode names, Pydio 5 roots")
    func listings() throws {
        let root = try R.chain(R.listing).value(of: PydioFixtures.live("09_ls_root"))
        #expect(root.folder?.path == "/")
        #expect(root.children.map(\.isRecycleBin) == [true])
        let dir = try R.chain(R.listing).value(of: PydioFixtures.live("23_ls_dir"))
        #expect(dir.folder?.path == "/fixtures")
        let hello = try #require(dir.children.first { $0.path == "/fixtures/hello.txt" })
        #expect(hello.isFile && hello.size == 12 && hello.modified != nil && hello.name == "hello.txt")
        #expect(dir.children.contains { !$0.isFile && $0.path == "/fixtures/sub" })
        let page = try R.chain(R.listing).value(of: PydioFixtures.live("90_ls_paginated_page2"))
        #expect(page.page?.current == 2 && page.page?.total == 3 && page.page?.count == 510)
        #expect(page.hasNextPage)
        #expect(page.children.count == 200)
        let names = try R.chain(R.listing).value(of: PydioFixtures.live("42_ls_special_names")).children.map(\.name)
        #expect(names.contains { $0.contains("&") })
        #expect(names.contains { $0.unicodeScalars.contains { $0.value > 0x7F } })
        let search = try R.chain(R.listing).value(of: PydioFixtures.live("29_search"))
        #expect(search.children.first?.attributes["search_score"] != nil)
        let sdk = try R.chain(R.listing).value(of: PydioFixtures.sdk("ls_response.xml"))
        #expect(sdk.folder?.path == "" && sdk.children.contains { $0.isRecycleBin })
        #expect(sdk.children.contains { $0.name.contains("\u{2019}") })
        #expect(try !R.chain(R.listing).value(of: PydioFixtures.sdk("ls_response2.xml")).children.isEmpty)
        #expect(try R.chain(R.json).value(of: PydioFixtures.live("24_ls_dir_json")) != .null)
    }

    @Test("writes: messages, added, updated and removed nodes, background tasks")
    func writes() throws {
        let mkdir = try R.chain(R.change).value(of: PydioFixtures.live("10_mkdir"))
        #expect(mkdir.message != nil && mkdir.added.map(\.path) == ["/fixtures"])
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("12_upload_xhr")).added.map(\.path) == ["/fixtures/hello.txt"])
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("13_upload_overwrite")).updated.map(\.path) == ["/fixtures/hello.txt"])
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("14_upload_auto_rename")).added.map(\.path) == ["/fixtures/hello-1.txt"])
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("17_upload_put_stream")).added.map(\.path) == ["/fixtures/put.txt"])
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("18_mkfile")).added.first?.isFile == true)
        let rename = try R.chain(R.change).value(of: PydioFixtures.live("19_rename"))
        #expect(rename.updated.first?.attributes["original_path"] == "/fixtures/new.txt")
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("20_mkdir_sub")).added.first?.path == "/fixtures/sub")
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("21_copy")).added.first?.path == "/fixtures/sub/renamed.txt")
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("22_move")).updated.first?.path == "/fixtures/sub/put.txt")
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("33_unshare")).message == "Successfully unshared element")
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("34_delete")).updated.first?.path == "/recycle_bin/hello-1.txt")
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("98_delete_permanent")).removed == ["/recycle_bin/hello-1.txt"])
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("96_delete_background_task")).isPending)
        #expect(try R.chain(R.change).value(of: PydioFixtures.live("40_mkdir_unicode")).added.first?.name.contains("日本") == true)
        #expect(try R.chain(R.change).value(of: PydioFixtures.sdk("mkdir_success_response.xml")).message != nil)
        #expect(try R.chain(R.empty).value(of: PydioFixtures.live("35_switch_repository")))
        #expect(try PydioFixtures.live("15_upload_no_flag").isEmpty)
    }

    @Test("errors map to codes callers switch on")
    func errors() throws {
        let cases: [(String, ProviderError.Code)] = [
            ("11_mkdir_exists", .alreadyExists), ("92_rename_exists", .alreadyExists), ("25_ls_missing", .notFound),
            ("45_ls_file_not_folder", .notFound), ("28_download_missing", .notFound), ("91_delete_empty_selection", .server),
            ("16_upload_error", .forbidden), ("41_upload_special_name", .invalidArgument),
        ]
        for (name, code) in cases {
            #expect(try failure(R.chain(R.change), PydioFixtures.live(name))?.code == code, "\(name)")
        }
        #expect(try failure(R.chain(R.change), PydioFixtures.live("16_upload_error"))?.message?.hasSuffix("(412)") == true)
        #expect(try failure(R.chain(R.change), PydioFixtures.sdk("error_response.xml"))?.message == "Example error message!")
        let html = RecognizableAnswer(
            status: 200, headers: ["Content-Type": "text/html"],
            body: Data("<script language='javascript'>parent.ajaxplorer.displayMessage('ERROR', 'Disk full');</script>".utf8))
        #expect(try failure(R.chain(R.change), html)?.message == "Disk full")
    }

    @Test("stat, downloads, ranges and shares")
    func filesAndShares() throws {
        #expect(try R.chain(R.json).value(of: PydioFixtures.live("26_stat"))["size"]?.intValue == 12)
        #expect(try R.chain(R.json).value(of: PydioFixtures.live("44_stat_folder"))["mode"]?.intValue == 16832)
        let download = try PydioFixtures.live("27_download")
        #expect(download.text == "hello pydio\n")
        #expect(download.headers.first(name: "content-disposition")?.hasPrefix("attachment") == true)
        let range = try PydioFixtures.live("43_download_range")
        #expect(range.status == 206 && range.body.count == 3 && range.headers.first(name: "content-range") == "bytes 2-4/12")
        #expect(try PydioFixtures.live("32_public_download").text == "hello pydio\n")
        let link = try R.chain(R.text).value(of: PydioFixtures.live("30_share_link"))
        #expect(URL(string: link)?.lastPathComponent == "471622")
        let links = PydioShareLink.links(in: try R.chain(R.json).value(of: PydioFixtures.live("31_share_data")))
        #expect(links.map(\.hash) == ["471622"])
        #expect(links.first?.url?.absoluteString == "http://127.0.0.1:8090/public/471622")
    }

    @Test("every recording is read by one of the tests above or by PydioSecondRunRecordingTests")
    func inventory() throws {
        let live = Set(try PydioFixtures.files("live-8.2.5").filter { !$0.hasSuffix(".md") }.map { ($0 as NSString).deletingPathExtension })
        let covered: Set<String> = [
            "01_unauth_ping", "02_unauth_registry", "03_get_seed", "04_login_bad_password", "05_login_ok", "06_no_token_error",
            "07_repositories", "08_user_registry", "09_ls_root", "10_mkdir", "11_mkdir_exists", "12_upload_xhr",
            "13_upload_overwrite", "14_upload_auto_rename", "15_upload_no_flag", "16_upload_error", "17_upload_put_stream",
            "18_mkfile", "19_rename", "20_mkdir_sub", "21_copy", "22_move", "23_ls_dir", "24_ls_dir_json", "25_ls_missing",
            "26_stat", "27_download", "28_download_missing", "29_search", "30_share_link", "31_share_data", "32_public_download",
            "33_unshare", "34_delete", "35_switch_repository", "36_get_secure_token", "37_logout", "38_after_logout_ls",
            "39_after_logout_registry", "40_mkdir_unicode", "41_upload_special_name", "42_ls_special_names",
            "43_download_range", "44_stat_folder", "45_ls_file_not_folder",
            // 46 onwards: PydioSecondRunRecordingTests.
            "46_upload_empty_file", "47_mkfile_empty", "48_ls_after_mkfile", "49_upload_nfd_name", "50_ls_after_nfd_upload",
            "51_download_nfd_path", "51b_download_nfc_path", "52_mkdir_nfd", "53_ls_after_nfd_mkdir", "54_search_many_terms",
            "55_search_many_terms_root", "56_share_link_with_expiry_password", "57_share_data_expiry_password",
            "58_ls_headers", "59_download_headers", "60_search_fulltext_noindex", "90_ls_paginated_page2",
            "91_delete_empty_selection", "92_rename_exists", "93_login_captcha_required", "94_get_seed_captcha",
            "95_login_remember_me", "96_delete_background_task", "97_get_captcha", "98_delete_permanent",
        ]
        #expect(live.subtracting(covered).isEmpty, "recordings no test reads: \(live.subtracting(covered).sorted())")
        let sdk = Set(try PydioFixtures.files("sdk-objc"))
        #expect(sdk == [
            "error_response.xml", "get_registers_response.xml", "login_response.xml", "ls_response.xml", "ls_response2.xml",
            "mkdir_success_response.xml", "unathorized_response.xml", "unathorized_response2.xml",
        ])
    }
}

@Suite("Pydio URLs")
struct PydioURLTests {
    @Test("a pydio URL splits after its base path and workspace; settings read them back")
    func urls() throws {
        let (root, path) = try PydioProviderFactory().locate(URL(string: "http://h:8090/pydio/my-files/a%20b/c.txt")!)
        #expect(root.absoluteString == "http://h:8090/pydio/my-files/")
        #expect(path == "/a b/c.txt")
        #expect(throws: ProviderError.self) { _ = try PydioProviderFactory().locate(URL(string: "http://h/pydio")!) }
        let settings = try PydioProviderSettings(ProviderConfiguration(
            url: URL(string: "https://ann@h/pydio/1/Reports/Q%203")!, options: ["chunkSize": "2048"]))
        #expect(settings.baseURL.absoluteString == "https://h/pydio/")
        #expect(settings.workspace == "1" && settings.rootPath == "/Reports/Q 3" && settings.chunkSize == 2048)
        #expect(throws: ProviderError.self) { _ = try PydioProviderSettings(ProviderConfiguration(url: URL(string: "https://h/pydio/")!)) }
        let bare = try PydioProviderSettings(ProviderConfiguration(url: URL(string: "http://h/ws")!, options: ["basePath": "/"]))
        #expect(bare.baseURL.absoluteString == "http://h/" && bare.workspace == "ws" && bare.rootPath == "/")
    }

    @Test("the password is hashed only for a seed other than -1")
    func hashing() {
        #expect(PydioSession.password("secret", seed: "-1") == "secret")
        let inner = Digester.hex(.md5, of: Array("secret".utf8)) ?? ""
        #expect(PydioSession.password("secret", seed: "abc") == Digester.hex(.md5, of: Array((inner + "abc").utf8)))
    }
}
