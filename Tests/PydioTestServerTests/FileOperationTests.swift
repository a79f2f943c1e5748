import Foundation
import Testing
@testable import PydioTestServer

@Suite("File operations")
struct FileOperationTests {
    @Test("chunked upload: .dlpart, empty tree, then add at the target size")
    func partialUpload() async throws {
        try await withServer { server, client in
            try await client.login()
            let first = try await client.put("/", "big.bin", Data("abcd".utf8), extra: [
                ("partial_upload", "true"), ("partial_target_bytesize", "10"),
            ])
            #expect(first.text == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><tree ></tree>")
            #expect(try await client.action("ls", [("dir", "/")]).text.contains("filename=\"/big.bin.dlpart\""))
            let second = try await client.put("/", "blob", Data("efgh".utf8), extra: [
                ("partial_upload", "true"), ("partial_target_bytesize", "10"), ("appendto_urlencoded_part", "big.bin"),
            ])
            #expect(second.text.hasSuffix("<tree ></tree>"))
            let last = try await client.put("/", "blob", Data("ij".utf8), extra: [
                ("partial_upload", "true"), ("partial_target_bytesize", "10"), ("appendto_urlencoded_part", "big.bin"),
            ])
            #expect(last.text.contains("<nodes_diff><add><tree is_file=\"true\" filename=\"/big.bin\""))
            #expect(last.text.contains("bytesize=\"10\""))
            #expect(try await client.action("download", [("file", "/big.bin")]).text == "abcdefghij")
            #expect(try await !client.action("ls", [("dir", "/")]).text.contains(".dlpart"))
            #expect(server.fileCount(workspace: "1") == 1)
        }
    }

    @Test("delete above backgroundTaskBytes: <consume_channel/> only, applied later, as a background task")
    func backgroundDelete() async throws {
        try await withServer({ $0.backgroundTaskBytes = 100; $0.holdsBackgroundTasks = true }) { server, client in
            try await client.login()
            _ = try await client.put("/", "large.bin", Data(repeating: 1, count: 500))
            let answer = try await client.postAction("delete", [("nodes[]", "/large.bin")])
            #expect(answer.text == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><tree ><consume_channel/></tree>")
            #expect(server.fileCount(workspace: "1") == 1, "not yet")
            #expect(server.runBackgroundTasks() == 1)
            #expect(server.fileCount(workspace: "1") == 0)
            #expect(try await client.action("ls", [("dir", "/recycle_bin")]).text.contains("filename=\"/recycle_bin/large.bin\""))
            let restored = try await client.postAction("restore", [("file", "/recycle_bin/large.bin")])
            #expect(restored.text.contains("original_path=\"/recycle_bin/large.bin\""))
            #expect(server.fileCount(workspace: "1") == 1)
        }
    }

    @Test("forbidden names are refused with 411, dot names dropped, NFD stored as NFC, tags sanitised in mkdir")
    func names() async throws {
        try await withServer { server, client in
            try await client.login()
            for name in ["a?b.txt", "a\"b.txt", "a|b.txt", "a\\b.txt", " lead.txt"] {
                let answer = try await client.put("/", "x", Data("1".utf8), extra: [("urlencoded_filename", name)])
                #expect(answer.text == "\(name) contains forbidden characters (411)")
                #expect(answer.header("Content-Type") == "text/plain; charset=UTF-8")
            }
            let hidden = try await client.put("/", ".hidden", Data("1".utf8))
            #expect(hidden.body.isEmpty && hidden.status == 200)
            #expect(server.fileCount(workspace: "1") == 0)
            let decomposed = try await client.put("/", "u\u{0308}.txt", Data("1".utf8))
            #expect(decomposed.text.contains("filename=\"/\u{00FC}.txt\""))
            #expect(decomposed.text.utf8.contains(0xCC) == false, "no combining diaeresis left")
            let dir = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "a<b>c|d?")])
            #expect(dir.text.contains("filename=\"/acd\""))
            #expect(try await client.postAction("mkdir", [("dir", "/"), ("dirname", "ACD")]).text.contains("already exists"))
            let escaped = try await client.put("/", "x&y<z>.txt", Data("1".utf8))
            #expect(escaped.text.contains("filename=\"/x&amp;y&lt;z&gt;.txt\""))
        }
    }

    @Test("copy auto-renames in place, move refuses a clash, rename with dest, search by content when asked (and indexed)")
    func copyMoveSearch() async throws {
        try await withServer({ $0.indexesContent = true }) { _, client in
            try await client.login()
            _ = try await client.put("/", "note.txt", Data("secret words".utf8))
            let copy = try await client.postAction("copy", [("dest", "/"), ("file", "/note.txt")])
            #expect(copy.text.contains("filename=\"/note-1.txt\""))
            _ = try await client.postAction("mkdir", [("dir", "/"), ("dirname", "d")])
            let moved = try await client.postAction("move", [("dest", "/d"), ("file_0", "/note.txt"), ("file_1", "/note-1.txt")])
            #expect(moved.text.contains("original_path=\"/note.txt\"") && moved.text.contains("original_path=\"/note-1.txt\""))
            let renamed = try await client.postAction("rename", [("file", "/d/note.txt"), ("dest", "/moved.txt")])
            #expect(renamed.text.contains("filename=\"/moved.txt\""))
            let byName = try await client.action("search", [("query", "secret")])
            #expect(!byName.text.contains("is_file=\"true\""))
            let byContent = try await client.action("search", [("query", "secret"), ("fields", "filename,ajxp_document_content")])
            #expect(byContent.text.contains("filename=\"/moved.txt\"") && byContent.text.contains("filename=\"/d/note-1.txt\""))
        }
    }
}
