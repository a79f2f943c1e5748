import Foundation
import NIOHTTP1
import ProviderAPI
import StrataProcessKit
import Testing
import WebDAVProvider
import HTTPProviderKit

/// `strata share`, `strata shares` and `strata search` against the loopback server, as a user runs them.
@Suite("strata CLI against the loopback Nextcloud server")
struct CLITests {
    /// Runs strata with `arguments`, the password in the environment; returns its status and standard output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: Data, error: String) {
        let run = try await StrataProcess.run(arguments, environment: ["STRATA_PASSWORD": LoopbackNextcloud.password])
        return (run.status, run.output, run.error)
    }

    @Test("share --public --link-password-file: the link password comes from a file, not the command line")
    func linkPasswordFile() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        _ = try await provider.upload(DataSource(string: "secret"), to: .root, name: "f.txt", options: UploadOptions())
        let base = cloud.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://").trimmingSuffix("/")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("link-pw-\(UUID().uuidString)")
        try Data("file pass 7\nignored second line\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let shared = try await Self.run([
            "share", "\(base)/\(folder)/f.txt", "--public", "--link-password-file", file.path, "-u", LoopbackNextcloud.user, "--json",
        ])
        #expect(shared.status == 0, "\(shared.error)")
        let share = try #require(try JSONSerialization.jsonObject(with: shared.output) as? [String: Any])
        #expect(share["passwordProtected"] as? Bool == true)
        // The link opens with the file's first line as its password, and not without it.
        let token = try #require((share["url"] as? String)?.split(separator: "/").last.map(String.init))
        let download = try #require(URL(string: cloud.server.baseURL.absoluteString.trimmingSuffix("/") + "/public.php/webdav/"))
        func status(_ password: String) async throws -> Int {
            var headers = HTTPHeaders()
            headers.add(name: "Authorization", value: "Basic " + Data("\(token):\(password)".utf8).base64EncodedString())
            let response = try await AsyncHTTPClientTransport.shared.send(TransportRequest(method: .GET, url: download, headers: headers))
            await response.body.discard()
            return response.status
        }
        #expect(try await status("file pass 7") == 200)
        #expect(try await status("file pass 7\nignored second line") == 401)
        let both = try await Self.run([
            "share", "\(base)/\(folder)/f.txt", "--public", "--password", "x", "--link-password-file", file.path, "-u", LoopbackNextcloud.user,
        ])
        #expect(both.status != 0)
    }

    @Test("share --public --password --expires, shares, and search, through nextcloud:// URLs")
    func shareSharesSearch() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        _ = try await provider.upload(DataSource(string: "cli"), to: .root, name: "report-cli.txt", options: UploadOptions())
        _ = try await provider.upload(DataSource(string: "other"), to: .root, name: "other.txt", options: UploadOptions())
        let base = cloud.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://").trimmingSuffix("/")
        let fileURL = "\(base)/\(folder)/report-cli.txt"

        let shared = try await Self.run([
            "share", fileURL, "--public", "--password", "cli pass 9", "--expires", "2100-01-01", "-u", LoopbackNextcloud.user, "--json",
        ])
        #expect(shared.status == 0, "\(shared.error)")
        let share = try #require(try JSONSerialization.jsonObject(with: shared.output) as? [String: Any])
        let id = try #require(share["id"] as? String)
        #expect(share["kind"] as? String == "publicLink")
        #expect(share["passwordProtected"] as? Bool == true)
        #expect((share["expires"] as? String)?.hasPrefix("2100-01-01") == true)
        let onServer = try await provider.shares(of: "/report-cli.txt")
        #expect(onServer.map(\.id) == [id])

        let listed = try await Self.run(["shares", fileURL, "-u", LoopbackNextcloud.user, "--json"])
        #expect(listed.status == 0, "\(listed.error)")
        let shares = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]])
        #expect(shares.compactMap { $0["id"] as? String } == [id])

        let searched = try await Self.run(["search", "\(base)/\(folder)", "name:report", "-u", LoopbackNextcloud.user, "--json"])
        #expect(searched.status == 0, "\(searched.error)")
        let items = try #require(try JSONSerialization.jsonObject(with: searched.output) as? [[String: Any]])
        let paths = items.compactMap { $0["path"] as? String }
        #expect(paths == ["/\(folder)/report-cli.txt"])

        let refused = try await Self.run(["share", fileURL, "--user", "bob", "--password", "x", "-u", LoopbackNextcloud.user])
        #expect(refused.status != 0)
    }

    @Test("what one strata run verified is kept in the cache folder: the next run sends no probe, detect --json shows it")
    func verdictKeptAcrossRuns() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (_, folder) = try await cloud.scratch()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("strata-facts-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let base = cloud.server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "nextcloud://").trimmingSuffix("/")
        let local = cache.appendingPathExtension("txt")
        try Data("kept".utf8).write(to: local)
        defer { try? FileManager.default.removeItem(at: local) }
        func run(_ arguments: [String]) async throws -> StrataRun {
            try await StrataProcess.run(
                arguments + ["-u", LoopbackNextcloud.user],
                environment: ["STRATA_PASSWORD": LoopbackNextcloud.password, "XDG_CACHE_HOME": cache.path])
        }

        let made = try await run(["mkdir", "\(base)/\(folder)/a"])
        #expect(made.status == 0, "\(made)")
        #expect(cloud.server.requests().contains { $0.method == "MKCOL" && $0.path.contains("strata-verify-") })
        cloud.server.resetRequests()
        let put = try await run(["put", local.path, "\(base)/\(folder)/a/f.txt"])
        #expect(put.status == 0, "\(put)")
        let sent = cloud.server.requests()
        #expect(sent.contains { $0.method == "PUT" })
        #expect(!sent.contains { $0.path.contains("strata-verify-") }, "the second run verified again: \(sent.map(\.path))")

        let detected = try await run(["detect", "--json", cloud.server.baseURL.absoluteString])
        #expect(detected.status == 0, "\(detected)")
        let entries = try #require(try JSONSerialization.jsonObject(with: detected.output) as? [[String: Any]])
        let nextcloud = try #require(entries.first { $0["kind"] as? String == "nextcloud" }, "\(detected.outputText)")
        let profile = try #require(nextcloud["profile"] as? [String: Any], "\(detected.outputText)")
        let verified = try #require(profile["verified"] as? [String: Any])
        #expect(verified["refusesStaleIfMatch"] as? Bool == true)
        #expect(verified["keepsPartialUploads"] as? Bool == false)
        #expect((nextcloud["features"] as? [String])?.contains("preconditions") == true)
        #expect(nextcloud["uploadsThroughTemporary"] as? Bool == false)
    }
}

