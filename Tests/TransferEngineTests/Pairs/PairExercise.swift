import Foundation
import ProviderAPI
import ProviderTesting
import Testing
import TransferEngine

/// The steps every pair test takes, from a source holding a copy of a local tree to a destination:
/// copy; `check` finds the trees identical; the destination's bytes are the local tree's; a second
/// `sync` sends nothing; one byte of one source file changes (same size) and `check` finds exactly
/// that file; a `sync` sends it again and `check` finds the trees identical.
struct PairExercise {
    /// Where the source's tree is.
    var source: TransferEndpoint
    /// Where the copy goes (missing at first).
    var destination: TransferEndpoint
    /// The destination's requests.
    var counting: CountingTransport
    /// The local tree the source holds a copy of.
    var original: LocalTree
    /// The names rules of each server the tree went through before the source (none when the
    /// source is the local tree).
    var sourceHops: [NameRules] = []
    /// Writes `PairTree.changed`'s new content (as changed in ``original``) to the source.
    var writeChange: @Sendable (Data) async throws -> Void = { _ in }
    var options = TransferManager.Options.testing(transfers: 8)
    /// Printed with the timing.
    var label: String

    /// Runs the steps; returns the copy's report.
    @discardableResult
    func run(sourceLocation: SourceLocation = #_sourceLocation) async throws -> TransferReport {
        var options = self.options
        options.pageSize = 1000
        let manager = TransferManager(options: options)
        let hops = sourceHops + [destination.provider.capabilities.names]
        let started = Date()

        // 1. The copy, all of it, the names the destination refuses mapped and reported.
        let first = try await manager.copy(from: source, to: destination)
        let copiedAt = Date()
        let expected = try TreeSnapshot.local(original.url, through: hops)
        #expect(first.failures.isEmpty, "\(first.failures.map { "\($0.relativePath): \($0.message)" })", sourceLocation: sourceLocation)
        #expect(first.filesCopied == expected.files.count, sourceLocation: sourceLocation)
        #expect(first.plan.mappedNames.count == mappedNames(hops: hops), sourceLocation: sourceLocation)

        // 2. check: identical, every file matching.
        let check = try await manager.check(source, against: destination)
        #expect(check.isIdentical, "missing \(check.missing), extra \(check.extra), differing \(check.differing)", sourceLocation: sourceLocation)
        #expect(check.matching == expected.files.count, sourceLocation: sourceLocation)

        // 3. The destination holds the same bytes under the expected names, empty folders included.
        let copied = try await TreeSnapshot.remote(destination.provider, at: destination.path)
        #expect(copied.folders == expected.folders, "\(copied.folders.symmetricDifference(expected.folders).sorted())", sourceLocation: sourceLocation)
        #expect(copied.files == expected.files, "\(Set(copied.files.keys).symmetricDifference(expected.files.keys).sorted())", sourceLocation: sourceLocation)

        // 4. A second sync sends nothing.
        let writes = Self.writes(counting)
        let second = try await manager.sync(from: source, to: destination)
        #expect(second.plan.changesNothing, "\(second.plan.actions.filter { $0.kind != .skip }.map(\.relativePath))", sourceLocation: sourceLocation)
        #expect(second.filesCopied == 0 && second.foldersCreated == 0 && second.deleted == 0, sourceLocation: sourceLocation)
        #expect(Self.writes(counting) == writes, sourceLocation: sourceLocation)

        // 5. One byte of one file changes on the source, its size the same: check finds that file alone.
        if first.plan.rule.kind == .sizeAndNotNewer {
            // The change must come after the copy by more than the rule's tolerance (1 s).
            let wait = copiedAt.addingTimeInterval(2.2).timeIntervalSinceNow
            if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
        }
        var bytes = try original.read(PairTree.changed)
        bytes[bytes.count / 2] ^= 0x20
        try original.write(PairTree.changed, bytes)
        try await writeChange(bytes)
        let found = try await manager.check(source, against: destination)
        #expect(found.differing == [try ItemPath(PairTree.changed)], "rule \(found.rule)", sourceLocation: sourceLocation)
        #expect(found.missing.isEmpty && found.extra.isEmpty, sourceLocation: sourceLocation)
        #expect(found.matching == expected.files.count - 1, sourceLocation: sourceLocation)

        // 6. A sync sends it again, and only it.
        let fixed = try await manager.sync(from: source, to: destination)
        #expect(fixed.filesCopied == 1 && fixed.deleted == 0 && fixed.failures.isEmpty, sourceLocation: sourceLocation)
        #expect(try await manager.check(source, against: destination).isIdentical, sourceLocation: sourceLocation)
        let sink = HashingSink()
        let target = try PairTree.changed.split(separator: "/").reduce(destination.path) { try $0.appending(TreeSnapshot.stored(String($1), through: hops)) }
        _ = try await destination.provider.download(target, to: sink, options: DownloadOptions())
        #expect(await sink.digest == (try TreeSnapshot.sha256(of: original.url.appendingPathComponent(PairTree.changed))), sourceLocation: sourceLocation)

        let seconds = Date().timeIntervalSince(started)
        print("pair \(label): \(expected.files.count) files, \(expected.folders.count) folders, rule \(first.plan.rule), \(String(format: "%.1f", seconds)) s")
        return first
    }

    /// How many names of the source's tree the destination holds otherwise (each is mapped and
    /// reported): refused and encoded, a look-alike of the source's decoded, or normalised.
    private func mappedNames(hops: [NameRules]) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: original.url.standardizedFileURL.path) else { return 0 }
        var count = 0
        while let relative = walker.nextObject() as? String {
            let name = String(relative.split(separator: "/").last ?? "")
            let onSource = TreeSnapshot.stored(name, through: sourceHops)
            if !TreeSnapshot.stored(name, through: hops).utf8.elementsEqual(onSource.utf8) { count += 1 }
        }
        return count
    }

    /// The writes a destination received, by method.
    static func writes(_ counting: CountingTransport) -> [Int] {
        ["PUT", "MKCOL", "DELETE", "MOVE", "COPY"].map { counting.count(of: $0) }
    }
}
