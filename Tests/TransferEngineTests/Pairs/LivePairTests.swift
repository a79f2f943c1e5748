import Foundation
import ProviderAPI
import StrataTestSupport
import Testing
import TransferEngine

/// Trees copied between real and loopback servers: the Apache and sabre that `scripts/with-servers`
/// (and `scripts/test`) start, and the loopback Nuxeo, Pydio and Nextcloud servers started here, in
/// this process. Each pair goes through ``PairExercise``'s steps. The pairs with a real server carry
/// `.liveServers`: skipped by plain `swift test`, required (a missing server fails) under `scripts/test`.
@Suite("trees between servers")
struct LivePairTests {
    /// Runs `body`, then stops `servers` whatever happened.
    static func using(_ servers: [PairServer], _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            for server in servers { await server.stop() }
            throw error
        }
        for server in servers { await server.stop() }
    }

    /// A local tree of awkward names, `count` small files and a large file of `size` bytes at
    /// `large`, copied to `first` (folder `tree`), then from there to `second` (folder `copy`), each
    /// hop through ``PairExercise``; the change the second hop must find is written on `first`.
    /// `names` label the two servers in failures.
    static func twoHops(
        _ first: PairServer, _ second: PairServer, names: (String, String), count: Int, large: String, size: Int
    ) async throws {
        let tree = try LocalTree()
        try PairTree.awkward(tree)
        try PairTree.many(tree, count: count)
        try PairTree.large(tree, large, size: size)
        let onFirst = try first.endpoint("tree")
        try await PairExercise(
            source: tree.endpoint, destination: onFirst, counting: first.counting, original: tree, label: "local → \(names.0)"
        ).run()
        let changed = try PairTree.changed.split(separator: "/").reduce(onFirst.path) { try $0.appending(String($1)) }
        try await PairExercise(
            source: onFirst, destination: try second.endpoint("copy"), counting: second.counting, original: tree,
            sourceHops: [first.provider.capabilities.names],
            writeChange: { _ = try await first.provider.upload(data: $0, to: changed, options: UploadOptions(conflict: .overwrite)) },
            label: "\(names.0) → \(names.1)"
        ).run()
    }

    @Test("local → loopback Nuxeo → Apache: 1,000 files in nested folders and awkward names, each hop checked, a changed byte found and sent", .liveServers)
    func localToNuxeoToApache() async throws {
        let apache = try await PairServer.live("apache")
        let nuxeo = try await PairServer.nuxeo()
        try await Self.using([nuxeo, apache]) {
            try await Self.twoHops(nuxeo, apache, names: ("Nuxeo", "Apache"), count: 1000, large: "large/3 MiB.bin", size: 3 << 20)
        }
    }

    @Test("local → loopback Pydio → loopback Nextcloud: names Pydio refuses mapped there and carried on, a large file, a changed byte found by a digest computed on Pydio")
    func localToPydioToNextcloud() async throws {
        let pydio = try await PairServer.pydio()
        let nextcloud: PairServer
        do { nextcloud = try await PairServer.nextcloud() } catch {
            await pydio.stop()
            throw error
        }
        try await Self.using([pydio, nextcloud]) {
            try await Self.twoHops(pydio, nextcloud, names: ("Pydio", "Nextcloud"), count: 120, large: "large/16 MiB.bin", size: 16 << 20)
        }
    }

    @Test("local → sabre: awkward names, empty folders, a changed byte found and sent", .liveServers)
    func localToSabre() async throws {
        let sabre = try await PairServer.live("sabre")
        try await Self.using([sabre]) {
            let tree = try LocalTree()
            try PairTree.awkward(tree)
            try PairTree.many(tree, count: 60)
            try await PairExercise(
                source: tree.endpoint, destination: try sabre.endpoint("copy"), counting: sabre.counting, original: tree, label: "local → sabre"
            ).run()
        }
    }

    @Test("local → loopback Nextcloud: awkward names, empty folders, a changed byte found by a digest computed on the source")
    func localToNextcloud() async throws {
        let nextcloud = try await PairServer.nextcloud()
        try await Self.using([nextcloud]) {
            let tree = try LocalTree()
            try PairTree.awkward(tree)
            try PairTree.many(tree, count: 60)
            try await PairExercise(
                source: tree.endpoint, destination: try nextcloud.endpoint("copy"), counting: nextcloud.counting, original: tree,
                label: "local → Nextcloud"
            ).run()
        }
    }
}
