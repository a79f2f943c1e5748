import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import StrataProcessKit
import StrataTestSupport
import Testing
import TransferEngine

/// `strata copy`, `check` and `sync`, the real binary, from a local folder to the real Apache:
/// 1,000 files, awkward names and a 64 MiB file, streamed.
@Suite("strata copy local → Apache", .liveServers)
struct LocalToApacheCommandTests {
    @Test("1,000 files, awkward names and a 64 MiB file: no temporary file, memory far below the file's size; check, a second sync, a changed byte found and sent")
    func localToApache() async throws {
        let apache = try await PairServer.live("apache")
        let live = try LiveWebDAVServer.named("apache")
        defer { Task { await apache.stop() } }
        let (user, password) = (live.user, live.password)
        let host = try #require(live.url.host, "the Apache URL \(live.url) has no host")
        let port = try #require(live.url.port, "the Apache URL \(live.url) has no port")
        let tree = try LocalTree()
        try PairTree.awkward(tree)
        try PairTree.many(tree, count: 1000)
        try PairTree.large(tree, "large/64 MiB.bin", size: 64 << 20)
        let expected = try TreeSnapshot.local(tree.url, through: [apache.provider.capabilities.names])
        let files = expected.files.count

        let prefix = live.url.path.hasSuffix("/") ? String(live.url.path.dropLast()) : live.url.path
        let target = "webdav://\(user)@\(host):\(port)\(prefix)/\(apache.base.segments.joined(separator: "/"))/copy"
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("strata-tmp-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let environment: [String: String?] = ["STRATA_PASSWORD": password, "TMPDIR": temporary.path]
        let noRemotes = ["--remotes", temporary.appendingPathComponent("no-remotes.json").path]
        func strata(_ arguments: [String]) async throws -> (run: StrataRun, peakKiB: Int?) {
            let watch = PeakMemoryWatch(marker: apache.base.name, command: arguments[0])
            let run = try await StrataProcess.run([arguments[0]] + noRemotes + arguments.dropFirst(), environment: environment, limit: 300)
            return (run, watch.stop())
        }

        let copy = try await strata(["copy", tree.url.path, target])
        let copiedAt = Date()
        #expect(copy.run.status == 0, "\(copy.run)")
        #expect(copy.run.outputText.contains("copied large/64 MiB.bin (64.0 MiB)\n"), "\(copy.run.outputText.suffix(400))")
        #expect(copy.run.outputText.contains("created empty/\n"))
        #expect(copy.run.outputText.contains("\ncopied \(files) files ("), "\(copy.run.outputText.suffix(300))")
        #expect(copy.run.outputText.hasSuffix("created \(expected.folders.count + 1) folders, deleted 0, 0 unchanged, 0 failed\n"))
        // Streamed: nothing spooled to a temporary file, and the process never held the file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0 != "no-remotes.json" }.isEmpty)

        let check = try await strata(["check", tree.url.path, target])
        #expect(check.run.status == 0, "\(check.run)")
        #expect(check.run.outputText.contains("\(files) matching, 0 missing, 0 extra, 0 differing\n"), "\(check.run.outputText.suffix(300))")
        // Apache keeps times it cannot set: the check says it compared no content.
        #expect(
            check.run.outputText.hasSuffix(
                "content not compared for \(files) matching files (\(files) by size and modified time): a file rewritten at the same size "
                    + "with its modified time set back would pass; --download compares content\n"), "\(check.run.outputText.suffix(300))")
        if let copied = copy.peakKiB, let checked = check.peakKiB {
            print("strata copy peak \(copied / 1024) MiB, strata check peak \(checked / 1024) MiB")
            #expect(copied - checked < 40 << 10, "strata copy peaked at \(copied) KiB, its check at \(checked) KiB")
        } else {
            #if os(Linux)
                Issue.record("the peak memory of strata was not read from /proc")
            #endif
            // Elsewhere there is no /proc to read a child's peak from: the memory check is Linux's.
        }

        let copied = try await TreeSnapshot.remote(apache.provider, at: try apache.base.appending("copy"))
        #expect(copied.folders == expected.folders)
        #expect(copied.files == expected.files, "\(Set(copied.files.keys).symmetricDifference(expected.files.keys).sorted())")

        let again = try await strata(["sync", tree.url.path, target])
        #expect(again.run.status == 0, "\(again.run)")
        #expect(again.run.outputText == "compared by size, and the destination not older than the source (within 1 s)\ncopied 0 files (0 B), created 0 folders, deleted 0, \(files) unchanged, 0 failed\n")

        let wait = copiedAt.addingTimeInterval(2.2).timeIntervalSinceNow
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
        var bytes = try tree.read(PairTree.changed)
        bytes[3] ^= 0x01
        try tree.write(PairTree.changed, bytes)
        let found = try await strata(["check", tree.url.path, target])
        #expect(found.run.status == 1, "\(found.run)")
        #expect(found.run.outputText.hasPrefix("differs \(PairTree.changed)\n"), "\(found.run.outputText)")
        #expect(found.run.outputText.contains("\(files - 1) matching, 0 missing, 0 extra, 1 differing\n"))
        let fixed = try await strata(["sync", tree.url.path, target])
        #expect(fixed.run.status == 0, "\(fixed.run)")
        #expect(fixed.run.outputText.contains("copied \(PairTree.changed) (29 B)\n"))
        #expect(fixed.run.outputText.hasSuffix("copied 1 files (29 B), created 0 folders, deleted 0, \(files - 1) unchanged, 0 failed\n"))
        #expect(try await strata(["check", tree.url.path, target]).run.status == 0)
        #expect(try await apache.provider.data(at: try apache.base.appending("copy").appending("nested").appending("deep").appending("change me.txt")) == bytes)
    }
}

/// The highest peak resident memory (`VmHWM`) of the `strata COMMAND` processes whose command
/// line holds `marker`, read from `/proc` every 20 ms until ``stop()``. A lower bound of the true
/// peak (the last moments before exit may be missed), so an upper limit on it never fails wrongly.
final class PeakMemoryWatch: Sendable {
    private let peak = NIOLockedValueBox<Int?>(nil)
    private let running = NIOLockedValueBox(true)

    init(marker: String, command: String) {
        let peak = self.peak
        let running = self.running
        Thread.detachNewThread {
            while running.withLockedValue({ $0 }) {
                for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where pid.allSatisfy(\.isNumber) {
                    guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { continue }
                    let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                    guard arguments.first?.hasSuffix("/strata") == true, arguments.dropFirst().first == command,
                        arguments.contains(where: { $0.contains(marker) }),
                        let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                        let field = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                        let kib = Int(field.split(separator: " ").dropFirst().first ?? "")
                    else { continue }
                    peak.withLockedValue { $0 = max($0 ?? 0, kib) }
                }
                usleep(20_000)
            }
        }
    }

    /// Stops watching; the peak seen, in KiB, or `nil` if no such process was seen.
    func stop() -> Int? {
        running.withLockedValue { $0 = false }
        return peak.withLockedValue { $0 }
    }
}
