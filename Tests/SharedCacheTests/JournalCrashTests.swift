import Foundation
import NextcloudTestServer
import ProviderAPI
import Testing
@testable import SharedCache

/// The sync journal under SIGKILL: a child records offline writes and replays them against a
/// loopback Nextcloud server in this process, and is killed at random points of both; the server
/// counts the writes it received per action.
@Suite("SyncJournal crash safety", .serialized)
struct JournalCrashTests {
    /// The actions of a round: the name the child logs, the request that performs it, and the file it leaves.
    private static let actions: [(name: String, method: String, path: String, seedWrites: Int)] = [
        ("new", "PUT", "new.txt", 0), ("base", "PUT", "base.txt", 1), ("rename", "MOVE", "old.txt", 0),
        ("delete", "DELETE", "doomed.txt", 0), ("mkdir", "MKCOL", "dir", 0), ("inner", "PUT", "dir/inner.txt", 0),
    ]

    @Test("a journaling child killed with SIGKILL while recording or replaying, 50 times: no recorded action lost, none performed twice")
    func killedJournals() async throws {
        let password = "pw-\(UInt32.random(in: 0...UInt32.max))"
        let server = try await NextcloudTestServer.start(NextcloudTestServer.Configuration(users: ["alice": password]))
        let dir = try CacheDirectory()
        defer { dir.remove() }
        let cache = dir.url.appendingPathComponent("cache")
        let url = server.baseURL.absoluteString.droppingSuffix("/") + "/remote.php/dav/files/alice/"
        var recorded: [Int: Set<String>] = [:]
        var seeded: Set<Int> = []
        var killed = 0
        var killedReplaying = 0
        var killedReplayingLeftovers = 0
        var killedRecording = 0
        // At least 50 rounds, and more (up to 150) until 25 children were killed mid-work: on a
        // loaded machine more children finish before their kill, and the test would prove less.
        let minimumRounds = 50
        let wantedKills = 25
        var rounds = 0
        while rounds < minimumRounds || (killed < wantedKills && rounds < 3 * minimumRounds) {
            let round = rounds
            rounds += 1
            let log = dir.url.appendingPathComponent("journal-\(round).log")
            let child = try TortureProcess(["journal", cache.path, url, "alice", password, "\(round)"], log: log)
            // Lines: leftovers, seeded, six recorded, replayed: stop anywhere from the replay of what the
            // last child left, through recording, to the replay of this round.
            let lines = Int.random(in: 0...8)
            try await child.waitForLines(lines, timeout: .seconds(120))
            try await Task.sleep(for: .milliseconds(lines == 0 ? Int.random(in: 20...400) : Int.random(in: 0...30)))
            if child.process.isRunning {
                child.kill()
                killed += 1
                let seen = child.lines()
                if seen.isEmpty {
                    killedReplayingLeftovers += 1
                } else if seen.last?.hasSuffix(" inner") == true {
                    killedReplaying += 1
                } else if seen.count >= 2 {
                    killedRecording += 1
                }
            } else {
                #expect(await child.wait() == 0, "round \(round): the child failed: \(child.lines())")
            }
            for line in child.lines() {
                let parts = line.split(separator: " ").map(String.init)
                if parts.first == "seeded", let r = Int(parts[1]) { seeded.insert(r) }
                if parts.first == "recorded", parts.count == 3, let r = Int(parts[1]) { recorded[r, default: []].insert(parts[2]) }
            }
        }
        let final = try TortureProcess(["journal-replay", cache.path, url, "alice", password], log: dir.url.appendingPathComponent("final.log"))
        #expect(await final.wait() == 0, "the final replay failed: \(final.lines())")
        let store = try CacheStore(directory: cache)
        let left = try await Int.fromJournal(store)
        #expect(left == 0, "entries left in the journal after the final replay")

        // Count the writes per action; a recorded (logged) action must have exactly one, an
        // unlogged one (killed before it was logged, maybe committed) at most one.
        let requests = server.requests()
        var duplicates = 0
        var performed = 0
        var missing: [String] = []
        for round in seeded.sorted() {
            let prefix = "/remote.php/dav/files/alice/r\(round)/"
            let logged = recorded[round] ?? []
            for action in Self.actions {
                let target = prefix + action.path
                let writes = requests.filter { request in
                    guard request.method == action.method else { return false }
                    return request.path.droppingSuffix("/") == target
                }.count - action.seedWrites
                performed += max(0, writes)
                duplicates += max(0, writes - 1)
                if logged.contains(action.name), writes != 1 { missing.append("r\(round) \(action.name): \(writes) writes") }
            }
            // What the logged actions left on the server.
            func contents(_ path: String) -> Data? { server.contents(user: "alice", path: "r\(round)/\(path)") }
            for (name, path) in [("new", "new.txt"), ("base", "base.txt"), ("inner", "dir/inner.txt")] where logged.contains(name) {
                #expect(contents(path) == journalBytes(round: round, name: name), "round \(round): \(path)")
            }
            if logged.contains("rename") {
                #expect(contents("renamed.txt") == Data("server old.txt \(round)\n".utf8), "round \(round): renamed.txt")
                #expect(contents("old.txt") == nil, "round \(round): old.txt after the rename")
            }
            if logged.contains("delete") { #expect(contents("doomed.txt") == nil, "round \(round): doomed.txt after the delete") }
        }
        let loggedCount = recorded.values.reduce(0) { $0 + $1.count }
        print(
            "journal crash test: \(rounds) rounds, \(killed) killed (\(killedRecording) while recording, \(killedReplaying) replaying the round, "
                + "\(killedReplayingLeftovers) before or while replaying leftovers), \(loggedCount) actions logged, \(performed) performed, \(duplicates) duplicates")
        #expect(duplicates == 0, "actions performed twice")
        #expect(missing.isEmpty, "logged actions not performed exactly once: \(missing)")
        #expect(killed >= wantedKills, "only \(killed) of \(rounds) children were killed")
        #expect(loggedCount >= minimumRounds, "only \(loggedCount) actions were recorded")
        await server.stop()
    }
}

extension Int {
    /// How many entries the cache's journal holds, every account.
    static func fromJournal(_ store: CacheStore) async throws -> Int {
        try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journal") ?? 0 }
    }
}

extension String {
    func droppingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

/// The bytes the torture child uploads for `name` in `round` (as `journalBytes` in `strata-cache-torture`).
func journalBytes(round: Int, name: String) -> Data {
    let seed = UInt64(round) << 8 | UInt64(name.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xff })
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: 1024 << (round % 9))
    for index in bytes.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    return Data(bytes)
}
