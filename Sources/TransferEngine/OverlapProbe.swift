import Foundation
import ProviderAPI

/// Finds out with marker files whether a copy's or a sync's two targets are one tree, where
/// their locations cannot tell (``TreeOverlap``).
///
/// 1. A uniquely named empty file is written in the destination folder (or, when it does not
///    exist yet, in its nearest existing folder) and looked for from the source side: in the
///    source folder (one tree), in the source's folders within its root (the destination
///    contains the source), and below the source (the destination inside it: at each tail of
///    the destination's path where its location is known, then by walking the source tree).
///    The marker is deleted.
/// 2. If that found nothing, a marker is written in the source folder and looked for below the
///    destination the same way (the source inside the destination, seen only from there), and
///    deleted. A source that cannot be written (read-only) makes the probe fail: the caller
///    refuses the job, since the overlap cannot be ruled out.
///
/// Lookups go past a provider in front of another (``FrontingProvider``, such as an offline cache) to the server.
struct OverlapProbe: Sendable {
    let source: TransferEndpoint
    let destination: TransferEndpoint
    /// How deep and how large a tree the walks may go through: a server's endless tree stops
    /// the probe as it stops the plan.
    var limits = TreeLimits.standard

    /// The overlap found, said in words, or `nil` when the two targets are apart.
    func run() async throws -> String? {
        let from = Self.uncached(source.provider)
        let to = Self.uncached(destination.provider)
        // The destination folder, or its nearest existing folder and the part still to create.
        var anchor = destination.path
        var missing: [String] = []
        while true {
            if let item = try await to.itemIfExists(at: anchor) {
                // A file there holds no folder: the planner refuses a folder onto a file.
                if item.kind == .file { return nil }
                break
            }
            if anchor.isRoot { throw ProviderError(.notFound, "the destination's root folder is missing") }
            missing.insert(anchor.name, at: 0)
            anchor = anchor.parent
        }
        let marker = "strata-overlap-probe-\(UUID().uuidString).tmp"

        // 1. A marker on the destination side, looked for from the source.
        let anchorTails = try await tails(of: anchor, on: to)
        let seen: Sighting? = try await withMarker(marker, in: anchor, on: to) {
            if try await from.itemIfExists(at: try source.path.appending(marker)) != nil { return .same }
            var above = source.path
            var below: [String] = []
            while !above.isRoot {
                below.insert(above.name, at: 0)
                above = above.parent
                if try await from.itemIfExists(at: try above.appending(marker)) != nil { return .containsSource(at: below) }
            }
            return try await find(marker, below: source.path, on: from, tails: anchorTails).map { .insideSource(at: $0) }
        }
        switch seen {
        case .same?:
            return missing.isEmpty ? "they are the same folder" : "the destination is inside the source, at \(TreeOverlap.text(missing))"
        case .insideSource(let at)?:
            return "the destination is inside the source, at \(TreeOverlap.text(at + missing))"
        case .containsSource(let at)?:
            return Self.overlap(missing, at)
        case nil:
            break
        }

        // 2. A marker in the source, looked for below the destination's anchor.
        let sourceTails = try await tails(of: source.path, on: from)
        let found = try await withMarker(marker, in: source.path, on: from) {
            try await find(marker, below: anchor, on: to, tails: sourceTails)
        }
        return found.flatMap { Self.overlap(missing, $0) }
    }

    /// Where the marker written in the destination's anchor was seen from the source.
    private enum Sighting: Sendable {
        /// In the source folder: the anchor is the source.
        case same
        /// Below the source: the anchor is inside it, at these names.
        case insideSource(at: [String])
        /// In a folder above the source: the anchor contains it, at these names.
        case containsSource(at: [String])
    }

    /// The overlap of a destination `missing` below the anchor (empty: the anchor itself) and a
    /// source at `relative` below it, in words; `nil` when the destination branches off the way
    /// to the source.
    private static func overlap(_ missing: [String], _ relative: [String]) -> String? {
        guard zip(missing, relative).allSatisfy({ $0 == $1 }) else { return nil }
        if missing.count <= relative.count {
            return "the source is inside the destination, at \(TreeOverlap.text(Array(relative.dropFirst(missing.count))))"
        }
        return "the destination is inside the source, at \(TreeOverlap.text(Array(missing.dropFirst(relative.count))))"
    }

    /// Writes the empty file `name` in `folder`, runs `look`, and deletes the file whatever happens.
    private func withMarker<T: Sendable>(
        _ name: String, in folder: ItemPath, on provider: any StorageProvider, _ look: () async throws -> T
    ) async throws -> T {
        _ = try await provider.upload(DataSource(bytes: []), to: folder, name: name, options: UploadOptions(conflict: .fail, readBack: false))
        let result: Result<T, any Error>
        do { result = .success(try await look()) } catch { result = .failure(error) }
        try await provider.delete(try folder.appending(name))
        return try result.get()
    }

    /// The tails of the folder's location path (its last name, its last two, …) where the location
    /// is known: the places below another folder where this one could be. `nil`: unknown.
    private func tails(of folder: ItemPath, on provider: any StorageProvider) async throws -> [[String]]? {
        let location = try await provider.location(of: folder)
        guard location.isKnown else { return nil }
        let names = location.path.map(\.name)
        return (1...max(1, names.count)).compactMap { count in count <= names.count ? Array(names.suffix(count)) : nil }
    }

    /// Where below `folder` the file `name` is: first looked for at each of `tails` (a stat each:
    /// where two spellings share the server's paths, a folder inside another is at a tail of its
    /// path), then by a walk of the tree (spellings whose paths differ above the two folders, as
    /// behind a proxy that maps each host name to another folder), which stops where it finds it.
    private func find(_ name: String, below folder: ItemPath, on provider: any StorageProvider, tails: [[String]]?) async throws -> [String]? {
        for tail in tails ?? [] {
            guard let path = try? ItemPath(segments: folder.segments + tail + [name]) else { continue }
            if try await provider.itemIfExists(at: path) != nil { return tail }
        }
        var level: [ItemPath] = [folder]
        var walk = limits.walk(below: folder)
        while !level.isEmpty {
            try walk.descend()
            var next: [ItemPath] = []
            for current in level {
                if Task.isCancelled { throw ProviderError(.cancelled, "cancelled while probing for an overlap") }
                let items = try await provider.listAll(current, fields: [])
                try walk.add(entries: items.count)
                for item in items {
                    if item.kind == .file, item.name == name { return Array(current.segments.dropFirst(folder.depth)) }
                    if item.kind == .folder { next.append(item.path) }
                }
            }
            level = next
        }
        return nil
    }

    private static func uncached(_ provider: any StorageProvider) -> any StorageProvider {
        (provider as? any FrontingProvider)?.base ?? provider
    }
}
