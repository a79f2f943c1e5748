import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// The requests each `strata` command sends, as the real binary, against the Apache that
/// `scripts/with-servers` starts (issue 34's round-trip budget on the command line; the API's is
/// `RequestBudgetTests`). Each command runs with `-vv`, which logs every request it sends, and
/// the log is counted: other suites using the same server at the same time cannot blur it.
///
/// The first command of a fresh cache folder probes the server and verifies it; what it learnt is
/// kept there (`webdav.profile`, a day), so every later command pays only for its own work. The
/// counts are exact: a change that adds a request fails here, and so does one that saves a request,
/// until the numbers (and Benchmarks/README's table) are lowered.
@Suite("requests per strata command (a kept server profile)", .liveServers)
struct CommandRequestCountTests {
    /// What one command sent: `METHOD path` per request, in order, and its outcome.
    private struct Sent: CustomStringConvertible {
        let requests: [String]
        let run: StrataRun
        var methods: [String] { requests.map { String($0.prefix(while: { $0 != " " })) } }
        var description: String { "\(requests.count) requests: \(requests.joined(separator: ", ")); exit \(run.status): \(run.error.suffix(600))" }
    }

    /// `strata -vv` with `arguments`: the requests its log names (the `http` trace lines).
    private static func sent(_ arguments: [String], environment: [String: String?]) async throws -> Sent {
        let run = try await StrataProcess.run(Array(arguments.prefix(1)) + ["-vv"] + arguments.dropFirst(), environment: environment)
        let requests = run.error.split(separator: "\n").compactMap { line -> String? in
            guard line.hasSuffix(" http") || line.contains(" http\t") || line.hasSuffix("] http"),
                let method = value(of: "method", in: line), let url = value(of: "url", in: line)
            else { return nil }
            return "\(method) \(URL(string: url)?.path ?? url)"
        }
        return Sent(requests: requests, run: run)
    }

    /// The value of `name=` in a log line of swift-log's stream handler.
    private static func value(of name: String, in line: Substring) -> String? {
        guard let start = line.range(of: " \(name)=") ?? line.range(of: "\(name)=") else { return nil }
        return String(line[start.upperBound...].prefix(while: { $0 != " " && $0 != "," && $0 != "]" }))
    }

    @Test("after the first command: get 1 request, ls and stat 1, put of a file 3, put of a folder of 20 files 24")
    func keptProfile() async throws {
        let server = try LiveWebDAVServer.named("apache")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cli-requests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // No `--cache` (that puts the offline cache in front): the server facts are kept in the
        // default cache folder, here a fresh one.
        let common = ["-u", server.user, "--retries", "0", "--remotes", scratch.appendingPathComponent("none.json").path]
        let environment: [String: String?] = [
            "STRATA_PASSWORD": server.password, "STRATA_KEYRING": "off", "XDG_CACHE_HOME": scratch.appendingPathComponent("cache").path,
        ]
        let folder = "cli-requests-\(UInt64.random(in: 0...UInt64.max))"
        let base = server.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://") + folder

        // The first write of a fresh cache: the probe and the verifier (not counted here).
        let made = try await Self.sent(["mkdir"] + common + [base], environment: environment)
        #expect(made.run.status == 0, "\(made)")
        #expect(made.methods.contains("OPTIONS"), "the first command of a fresh cache probes the server: \(made)")

        let local = scratch.appendingPathComponent("a.txt")
        try Data("one small file\n".utf8).write(to: local)
        let put = try await Self.sent(["put"] + common + [local.path, base + "/a.txt"], environment: environment)
        #expect(put.run.status == 0, "\(put)")
        // A look at the name (a folder there receives the file), the kept profile confirmed once
        // before the first write, the PUT; the stored item is not read back (no --json).
        #expect(put.methods == ["PROPFIND", "OPTIONS", "PUT"], "\(put)")

        let got = try await Self.sent(["get"] + common + [base + "/a.txt", scratch.appendingPathComponent("b.txt").path], environment: environment)
        #expect(got.run.status == 0, "\(got)")
        #expect(got.methods == ["GET"], "\(got)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("b.txt"), encoding: .utf8) == "one small file\n")

        let listed = try await Self.sent(["ls"] + common + [base + "/"], environment: environment)
        #expect(listed.run.status == 0 && listed.run.outputText.contains("a.txt"), "\(listed)")
        #expect(listed.methods == ["PROPFIND"], "\(listed)")

        let stat = try await Self.sent(["stat"] + common + [base + "/a.txt"], environment: environment)
        #expect(stat.run.status == 0, "\(stat)")
        #expect(stat.methods == ["PROPFIND"], "\(stat)")

        let tree = scratch.appendingPathComponent("twenty")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        for index in 0..<20 { try Data("file \(index)\n".utf8).write(to: tree.appendingPathComponent("f\(index).txt")) }
        let many = try await Self.sent(["put"] + common + [tree.path, base + "/twenty"], environment: environment)
        #expect(many.run.status == 0, "\(many)")
        // The kept profile confirmed, the planner's look at the destination (missing), its MKCOL
        // and read-back, then one PUT per file: no look-up of each name, no second look at the
        // folder or its parent before making it.
        #expect(many.methods.filter { $0 == "PUT" }.count == 20, "\(many)")
        #expect(many.methods.filter { $0 != "PUT" } == ["OPTIONS", "PROPFIND", "MKCOL", "PROPFIND"], "\(many)")

        let removed = try await StrataProcess.run(["rm"] + common + [base], environment: environment)
        #expect(removed.status == 0, "\(removed.error)")
    }
}
