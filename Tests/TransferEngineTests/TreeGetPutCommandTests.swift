import Foundation
import NextcloudTestServer
import StrataProcessKit
import Testing

/// `strata put FOLDER REMOTE` and `strata get -r REMOTE FOLDER`: the local special case of
/// `strata copy`, run as the real binary against a loopback Nextcloud server.
@Suite("strata get -r and put of a folder")
struct TreeGetPutCommandTests {
    @Test("put and get -r copy trees as strata copy does: the same lines, summary and --json; a second run sends nothing; single files unchanged")
    func trees() async throws {
        let password = "nc-\(UInt32.random(in: 0...UInt32.max))"
        let server = try await NextcloudTestServer.start(NextcloudTestServer.Configuration(users: ["alice": password]))
        defer { Task { await server.stop() } }
        let base = server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://alice@").trimmingSuffix("/")
            + "/t-\(UInt32.random(in: 0...UInt32.max))"
        let work = try LocalTree()
        let source = work.url.appendingPathComponent("photos")
        try work.write("photos/a.txt", "one")
        try work.write("photos/sub dir/b#1.txt", "two!")
        try work.folder("photos/empty")
        let noRemotes = ["--remotes", work.url.appendingPathComponent("no-remotes.json").path]
        func strata(_ arguments: [String], in directory: URL? = nil) async throws -> StrataRun {
            try await StrataProcess.run(
                [arguments[0]] + noRemotes + arguments.dropFirst(), environment: ["STRATA_PASSWORD": password], directory: directory)
        }

        // put FOLDER REMOTE: the folder's contents into REMOTE, created with its parents.
        let put = try await strata(["put", source.path, "\(base)/up"])
        #expect(put.status == 0, "\(put)")
        let lines = put.outputText.split(separator: "\n").map(String.init)
        #expect(Set(lines).isSuperset(of: ["copied a.txt (3 B)", "copied sub dir/b#1.txt (4 B)", "created empty/", "created ."]), "\(lines)")
        // A new folder that something new went into has no line of its own.
        #expect(!lines.contains("created sub dir/"), "\(lines)")
        #expect(lines.suffix(2) == ["compared by sha1 (computed on the source)", "copied 2 files (7 B), created 3 folders, deleted 0, 0 unchanged, 0 failed"])
        let again = try await strata(["put", source.path, "\(base)/up"])
        #expect(again.status == 0, "\(again)")
        #expect(again.outputText == "compared by sha1 (computed on the source)\ncopied 0 files (0 B), created 0 folders, deleted 0, 2 unchanged, 0 failed\n")
        let json = try await strata(["put", "--json", source.path, "\(base)/up"])
        #expect(json.status == 0, "\(json)")
        let report = try #require(try JSONSerialization.jsonObject(with: json.output) as? [String: Any], "\(json.outputText)")
        #expect(report["unchanged"] as? Int == 2)
        #expect((report["plan"] as? [String: Any])?["mode"] as? String == "copy")
        // Ending in /: a folder of the local folder's name is made inside.
        let into = try await strata(["put", source.path, "\(base)/into/"])
        #expect(into.status == 0, "\(into)")
        #expect(try await strata(["stat", "\(base)/into/photos/sub%20dir/b%231.txt"]).status == 0)
        let renamed = try await strata(["put", "--conflict", "rename", source.path, "\(base)/up"])
        #expect(renamed.status == 64, "\(renamed)")
        #expect(renamed.error.contains("--conflict rename applies to a single file"))

        // get -r REMOTE FOLDER: the remote contents into FOLDER (a plain relative path here).
        let get = try await strata(["get", "-r", "\(base)/up", "down"], in: work.url)
        #expect(get.status == 0, "\(get)")
        #expect(get.outputText.contains("copied sub dir/b#1.txt (4 B)\n"))
        #expect(get.outputText.hasSuffix("copied 2 files (7 B), created 3 folders, deleted 0, 0 unchanged, 0 failed\n"), "\(get.outputText)")
        #expect(try work.read("down/a.txt") == Data("one".utf8))
        #expect(try work.read("down/sub dir/b#1.txt") == Data("two!".utf8))
        #expect(work.exists("down/empty"))
        let getAgain = try await strata(["get", "--recursive", "\(base)/up", work.url.appendingPathComponent("down").path])
        #expect(getAgain.status == 0, "\(getAgain)")
        #expect(getAgain.outputText.hasSuffix("copied 0 files (0 B), created 0 folders, deleted 0, 2 unchanged, 0 failed\n"), "\(getAgain.outputText)")
        // Ending in / (or no folder at all): a folder of the remote folder's name is made inside.
        let named = try await strata(["get", "-r", "--json", "\(base)/up", "named/"], in: work.url)
        #expect(named.status == 0, "\(named)")
        #expect((try JSONSerialization.jsonObject(with: named.output) as? [String: Any])?["filesCopied"] as? Int == 2)
        #expect(try work.read("named/up/sub dir/b#1.txt") == Data("two!".utf8))
        #expect(try await strata(["get", "-r", "\(base)/up"], in: work.url).status == 0)
        #expect(try work.read("up/a.txt") == Data("one".utf8))
        #expect(try await strata(["get", "-r", "--range", "0-1", "\(base)/up", "x"], in: work.url).status == 64)

        // Single files as before: get to a file, put of a file prints nothing.
        let one = try await strata(["get", "\(base)/up/a.txt", work.url.appendingPathComponent("one.txt").path])
        #expect(one.status == 0 && one.outputText.isEmpty, "\(one)")
        #expect(try work.read("one.txt") == Data("one".utf8))
        let file = try await strata(["put", work.url.appendingPathComponent("one.txt").path, "\(base)/up/"])
        #expect(file.status == 0 && file.outputText.isEmpty, "\(file)")
    }
}
