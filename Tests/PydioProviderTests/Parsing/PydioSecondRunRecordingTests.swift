import Foundation
import NIOHTTP1
import ProviderAPI
import PydioProvider
import Testing
import HTTPProviderKit

/// The second run of recordings from the real pydio-core 8.2.5 (46 onwards in
/// `live-8.2.5/REQUESTS.md`): empty files, decomposed names, search limits, link details and
/// the headers PHP sends. These pin down what the server answers, as the recognizer chains read it.
@Suite("Pydio recordings, second run")
struct PydioSecondRunRecordingTests {
    typealias R = PydioRecognizers

    private func failure<T>(_ chain: ResponseRecognizerChain<T>, _ answer: RecognizableAnswer) throws -> ProviderError? {
        if case .failure(let error) = try chain.recognize(answer) { return error }
        return nil
    }

    @Test("an empty upload is refused with 410; mkfile creates the empty file, listed with size 0")
    func emptyFiles() throws {
        let refused = try #require(try failure(R.chain(R.change), PydioFixtures.live("46_upload_empty_file")))
        #expect(refused.message?.hasPrefix("You must select a file") == true)
        let made = try R.chain(R.change).value(of: PydioFixtures.live("47_mkfile_empty"))
        #expect(made.added.map(\.path) == ["/fx2/empty.txt"])
        #expect(made.added.first?.isFile == true && made.added.first?.size == 0)
        let listed = try R.chain(R.listing).value(of: PydioFixtures.live("48_ls_after_mkfile"))
        let empty = try #require(listed.children.first { $0.name == "empty.txt" })
        #expect(empty.isFile && empty.size == 0)
    }

    @Test("an uploaded decomposed name is stored precomposed; a folder name is stored as sent")
    func decomposedNames() throws {
        let precomposed = "caf\u{E9}.txt"
        let uploaded = try R.chain(R.change).value(of: PydioFixtures.live("49_upload_nfd_name"))
        #expect(uploaded.added.first?.name.unicodeScalars.elementsEqual(precomposed.unicodeScalars) == true)
        let listed = try R.chain(R.listing).value(of: PydioFixtures.live("50_ls_after_nfd_upload"))
        #expect(listed.children.contains { $0.name.unicodeScalars.elementsEqual(precomposed.unicodeScalars) })
        // The decomposed path is not found; the precomposed one is.
        #expect(try failure(R.chain(R.change), PydioFixtures.live("51_download_nfd_path"))?.code == .notFound)
        #expect(try PydioFixtures.live("51b_download_nfc_path").text == "nfd\n")
        let decomposedFolder = "dossier-e\u{301}"
        let made = try R.chain(R.change).value(of: PydioFixtures.live("52_mkdir_nfd"))
        #expect(made.added.first?.name.unicodeScalars.elementsEqual(decomposedFolder.unicodeScalars) == true)
        let after = try R.chain(R.listing).value(of: PydioFixtures.live("53_ls_after_nfd_mkdir"))
        #expect(after.children.contains { !$0.isFile && $0.name.unicodeScalars.elementsEqual(decomposedFolder.unicodeScalars) })
    }

    @Test("search: a folder-scoped query in a big folder hits Lucene's term limit; the same query from the root finds the file; content is not indexed")
    func search() throws {
        let limit = try #require(try failure(R.chain(R.listing), PydioFixtures.live("54_search_many_terms")))
        #expect(limit.message == "Terms per query limit is reached.")
        let root = try R.chain(R.listing).value(of: PydioFixtures.live("55_search_many_terms_root"))
        #expect(root.children.map(\.path) == ["/many/m-0007.txt"])
        #expect(try R.chain(R.listing).value(of: PydioFixtures.live("60_search_fulltext_noindex")).children.isEmpty)
    }

    @Test("a public link with expiry and password: the link, then its expiry and password flag")
    func linkDetails() throws {
        let link = try R.chain(R.text).value(of: PydioFixtures.live("56_share_link_with_expiry_password"))
        #expect(URL(string: link)?.lastPathComponent == "e8b5b3")
        let data = try R.chain(R.json).value(of: PydioFixtures.live("57_share_data_expiry_password"))
        let details = try #require(data["links"]?["e8b5b3"])
        #expect(details["has_password"] == .bool(true))
        #expect(details["expire_after"]?.intValue == 7)
        #expect(details["expire_time"]?.stringValue == "2026/12/01 00:34")
        #expect(details["is_expired"] == .bool(false))
    }

    @Test("PHP sends ls without a length (the body ends with the connection) and a download with one")
    func headers() throws {
        let ls = try PydioFixtures.live("58_ls_headers")
        #expect(ls.headers.first(name: "content-length") == nil)
        #expect(ls.headers.first(name: "connection") == "close")
        #expect(try !R.chain(R.listing).value(of: ls).children.isEmpty)
        // 59 is headers only: the 3 MiB body is not kept.
        let head = String(decoding: try PydioFixtures.data("live-8.2.5/59_download_headers.http"), as: UTF8.self)
        let lines = head.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.first == "HTTP/1.1 200 OK")
        #expect(lines.contains("Content-Length: 3145728"))
        #expect(lines.contains("Accept-Ranges: bytes"))
        // A Content-Range on a 200, with a trailing semicolon: not a range answer, and not parsed as one.
        let range = try #require(lines.first { $0.hasPrefix("Content-Range:") })
        #expect(ContentRange(String(range.dropFirst("Content-Range:".count))) == nil)
    }
}
