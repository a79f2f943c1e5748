import Foundation
import StrataProcessKit
import StrataTestSupport
import Testing

/// `strata sync` killed with SIGKILL in the middle, then run again with the same arguments: it
/// continues, the destination ends equal to the source, and no file reported done was PUT twice
/// (counted in the access log of the Apache that `scripts/with-servers` runs). A missing server or
/// log is a failure, never a skip.
@Suite("strata sync killed and run again", .liveServers)
struct KillResumeTests {
    /// What a run that the test killed printed.
    struct KilledRun {
        /// The files it printed as copied, below the roots.
        var reported: [String]
        /// Whether it died of the test's SIGKILL.
        var killed: Bool
        /// Its whole output.
        var output: String
        /// What it printed on stderr.
        var error: String
    }

    /// The environment of the child: ``StrataProcess``'s (its own home, no login variables), its
    /// own cache folder and the password.
    private static func environment(cache: URL, password: String) -> [String: String] {
        StrataProcess.environment(["STRATA_PASSWORD": password, "XDG_CACHE_HOME": cache.path])
    }

    /// The file of a `copied PATH (SIZE)` line; `nil` for other lines and the summary.
    static func copiedPath(_ line: String) -> String? {
        guard line.hasPrefix("copied "), !line.contains(" files ("), let open = line.range(of: " (", options: .backwards) else { return nil }
        return String(line[line.index(line.startIndex, offsetBy: 7)..<open.lowerBound])
    }

    /// Runs strata with `arguments`, reading its output as it comes, and kills it with SIGKILL once
    /// it printed `count` files as copied (then reads what it had printed before dying).
    static func runKilled(_ arguments: [String], environment: [String: String], afterCopied count: Int) async throws -> KilledRun {
        let binary = try StrataProcess.binary()
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("strata-kill-\(UUID().uuidString).err")
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let child = try ChildProcess(executable: binary, arguments: arguments, environment: environment, output: .pipe, error: .file(errorURL))
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var pending = Data()
                var all = Data()
                var reported: [String] = []
                var sentKill = false
                while true {
                    let piece = child.readPiece()
                    if piece.isEmpty { break }
                    pending.append(piece)
                    all.append(piece)
                    while let newline = pending.firstIndex(of: 10) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        if let path = copiedPath(line) { reported.append(path) }
                    }
                    if !sentKill, reported.count >= count {
                        child.signal(SIGKILL)
                        sentKill = true
                    }
                }
                let termination = child.waitUntilExit()
                let killed = termination.signaled && termination.status == SIGKILL
                let error = String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self)
                continuation.resume(
                    returning: KilledRun(reported: reported, killed: killed, output: String(decoding: all, as: UTF8.self), error: error))
            }
        }
    }

    /// The PUT requests in Apache's access log, by path.
    static func puts(in log: URL) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
            guard let start = line.range(of: "\"PUT "), let end = line.range(of: " HTTP/", range: start.upperBound..<line.endIndex) else { continue }
            counts[String(line[start.upperBound..<end.lowerBound]), default: 0] += 1
        }
        return counts
    }

    @Test("killed at several points, a second run continues: the destination equals the source, and no file reported done is PUT twice")
    func killAndResume() async throws {
        let apache = try LiveWebDAVServer.named("apache")
        let environment = ProcessInfo.processInfo.environment
        let servers = try #require(environment["STRATA_SERVERS_DIR"], "STRATA_SERVERS_DIR is not set: run with scripts/with-servers")
        let served = try #require(environment["STRATA_APACHE_ROOT"], "STRATA_APACHE_ROOT is not set: run with scripts/with-servers")
        let log = URL(fileURLWithPath: servers).appendingPathComponent("run/apache-access.log")
        let (user, password) = (apache.user, apache.password)

        // 200 files of 4 to 60 KiB in 5 folders.
        let source = try LocalTree()
        var generator = SystemRandomNumberGenerator()
        var files: [String] = []
        for index in 0..<200 {
            let name = "d\(index % 5)/f\(index).bin"
            let size = 4096 + (index * 2891) % (56 << 10)
            try source.write(name, Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            files.append(name)
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("strata-kill-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        let scratch = "kill-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: served + "/" + scratch) }
        let noRemotes = FileManager.default.temporaryDirectory.appendingPathComponent("strata-no-remotes.json").path

        var base = apache.url.absoluteString.replacingOccurrences(of: "http://", with: "webdav://")
        if base.hasSuffix("/") { base.removeLast() }
        for (round, killAfter) in [3, 40, 90, 150].enumerated() {
            let target = "\(scratch)/\(round)"
            let arguments = [
                "sync", "--remotes", noRemotes, "--transfers", "3", "-u", user, source.url.path,
                base + "/" + target,
            ]
            let childEnvironment = Self.environment(cache: cache, password: password)
            let first = try await Self.runKilled(arguments, environment: childEnvironment, afterCopied: killAfter)
            try #require(first.killed, "round \(round): the run ended before the kill after \(killAfter) files:\n\(first.output)\n\(first.error)")
            #expect(first.reported.count >= killAfter)
            #expect(first.reported.count < files.count, "round \(round): every file was done before the kill")

            let second = try await StrataProcess.run(
                arguments, environment: ["STRATA_PASSWORD": password, "XDG_CACHE_HOME": cache.path], limit: 60)
            try #require(second.status == 0, "round \(round): \(second)")
            let resumed = second.outputText.split(separator: "\n").first { $0.hasPrefix("resumed an unfinished run: ") }
            let alreadyDone = resumed.flatMap { Int($0.dropFirst("resumed an unfinished run: ".count).prefix { $0.isNumber }) }
            #expect(alreadyDone.map { $0 >= first.reported.count } == true, "round \(round): \(second.outputText.prefix(400))")
            let resent = Set(second.outputText.split(separator: "\n").compactMap { Self.copiedPath(String($0)) })
            #expect(resent.isDisjoint(with: first.reported), "round \(round): sent again \(resent.intersection(first.reported))")

            // The destination, as Apache serves it from disk, equals the source byte for byte.
            let destination = URL(fileURLWithPath: served).appendingPathComponent(target)
            for file in files {
                let copied = try? Data(contentsOf: destination.appendingPathComponent(file))
                #expect(copied == (try source.read(file)), "round \(round): \(file) differs")
            }
            let held = try FileManager.default.subpathsOfDirectory(atPath: destination.path).filter { $0.hasSuffix(".bin") }
            #expect(Set(held) == Set(files))

            // No file reported done in the killed run was PUT again; every file was PUT.
            // Apache writes a request's log line after it answered: wait for the last ones (up to
            // 120 s, not 5: a loaded machine delays Apache's log as much as anything else).
            var puts = try Self.puts(in: log)
            let deadline = ContinuousClock.now + .seconds(120)
            while !files.allSatisfy({ puts["/\(target)/\($0)", default: 0] >= 1 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                puts = try Self.puts(in: log)
            }
            try await Task.sleep(for: .milliseconds(200))
            puts = try Self.puts(in: log)
            for file in files {
                let count = puts["/\(target)/\(file)", default: 0]
                #expect(count >= 1, "round \(round): \(file) was never PUT")
                if first.reported.contains(file) {
                    #expect(count == 1, "round \(round): \(file), reported done before the kill, was PUT \(count) times")
                }
            }
        }
    }
}
