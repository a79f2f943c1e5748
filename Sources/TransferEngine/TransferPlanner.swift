import Foundation
import ProviderAPI
import ProviderKit

/// Walks the source tree breadth first, lists the matching folder of the destination beside
/// each folder of the source (never below a folder the destination lacks), and plans what to do.
struct TransferPlanner: Sendable {
    let mode: TransferMode
    let source: TransferEndpoint
    let destination: TransferEndpoint
    let pageSize: Int?
    /// How many folders are listed at once (each listing reads both sides at once).
    let listings: Int
    let rule: SameFileRule
    let names: DestinationNames
    /// The files an interrupted run of the job finished: not planned again while still valid.
    let finished: FinishedFiles
    /// Where digests computed from source files are kept, and looked up before reading a file.
    let digests: (any TransferJobStore)?
    /// The folders the job's last finished run found the same on both sides, with their etags then:
    /// a folder whose etags are still those on both sides is not listed. `nil`: every folder is listed.
    let known: [ItemPath: FolderVersion]?
    /// The names a transfer the other way gave the source's items (``NameMapping``), by the item's
    /// path below the source's root (paths compare bytes): each is the destination's own name for the item,
    /// used while the source still holds it under the name it became (a normalisation cannot be
    /// undone from the rules alone).
    let recalled: [ItemPath: String]
    /// How deep and how large the walk may go.
    var limits = TreeLimits.standard

    init(
        mode: TransferMode, source: TransferEndpoint, destination: TransferEndpoint, pageSize: Int?, listings: Int,
        computeSourceDigests: Bool, finished: FinishedFiles = FinishedFiles(), digests: (any TransferJobStore)? = nil,
        known: [ItemPath: FolderVersion]? = nil, comparison: SameFileRule.Comparison = .listings,
        recalled: [ItemPath: String] = [:]
    ) {
        self.known = known
        self.recalled = recalled
        self.finished = finished
        self.digests = digests
        self.mode = mode
        self.listings = max(1, listings)
        self.source = source
        self.destination = destination
        self.pageSize = pageSize
        rule = SameFileRule.choose(
            source: source.provider.capabilities, destination: destination.provider.capabilities, computingDigests: computeSourceDigests,
            comparison: comparison)
        names = DestinationNames(rules: destination.provider.capabilities.names, sourceRules: source.provider.capabilities.names)
    }

    /// One folder to compare: where it is below the roots, on the source, on the destination,
    /// and whether the destination has it (else it is not listed: everything below is missing);
    /// the etags its parents' listings gave it.
    private struct Folder: Sendable {
        var relative: ItemPath
        var source: ItemPath
        var destination: ItemPath
        var destinationExists: Bool
        var sourceETag: String? = nil
        var destinationETag: String? = nil
        /// The source's listing of the folder from a whole-tree listing (``StorageProvider/listTree(_:fields:maxEntries:)``), when it held it.
        var sourceListing: FolderListing? = nil
        /// The destination's, likewise.
        var destinationListing: FolderListing? = nil
    }

    /// The record of the folder at `relative` when its etags on both sides are still the recorded
    /// ones: nothing below it changed on either side since the job's last finished run.
    private func unchanged(_ relative: ItemPath, sourceETag: String?, destinationETag: String?) -> FolderVersion? {
        guard let version = known?[relative], version.matches(sourceETag: sourceETag, destinationETag: destinationETag) else { return nil }
        return version
    }

    func plan() async throws -> TransferPlan {
        var plan = TransferPlan(mode: mode, rule: rule)
        let sourceRoot = try await source.provider.item(at: source.path)
        let destinationRoot = try await destination.provider.itemIfExists(at: destination.path)
        if sourceRoot.kind == .file {
            try await planFile(sourceRoot, destinationRoot: destinationRoot, into: &plan)
            return plan
        }
        if source.provider.account == destination.provider.account,
            source.path.isDescendant(of: destination.path) || destination.path.isDescendant(of: source.path)
        {
            throw ProviderError(
                .invalidArgument, "\(source.path) and \(destination.path) overlap on the same server: a tree cannot be transferred into itself")
        }
        if let destinationRoot, destinationRoot.kind == .file {
            throw ProviderError(.conflict, "\(destination.path) is a file on the destination, and the source is a folder")
        }
        if destinationRoot == nil {
            plan.actions.append(
                TransferAction(
                    kind: .createFolder, reason: .missing, relativePath: .root, source: source.path, destination: destination.path,
                    isFolder: true, modified: sourceRoot.modified))
        }
        if let version = unchanged(.root, sourceETag: sourceRoot.etag, destinationETag: destinationRoot?.etag) {
            // Unchanged on both sides since the job last finished: one stat of each root was enough.
            plan.scan.unchanged.append(version)
            return plan
        }
        // Level by level: the folders of one depth are listed several at once, and their plans
        // are joined in the order of the level, so the plan is the same whatever finishes first.
        // A folder whose etags show it unchanged on both sides since the job last finished is not
        // listed: only the folders on the way to a change are.
        var level = [
            Folder(
                relative: .root, source: source.path, destination: destination.path, destinationExists: destinationRoot != nil,
                sourceETag: sourceRoot.etag, destinationETag: destinationRoot?.etag)
        ]
        // Each side's whole tree in one request where its server offers it (WebDAV's Depth:
        // infinity, proven once per server): the folders it holds are not listed again. Not asked
        // when the job knows folders unchanged since its last run: those are not listed at all.
        var sourceTree: TreeListing? = nil
        var destinationTree: TreeListing? = nil
        if known?.isEmpty ?? true {
            let limit = limits.wholeTreeLimit
            async let sourceAnswer = source.provider.listTree(source.path, fields: [], maxEntries: limit)
            destinationTree = destinationRoot == nil ? nil : try await destination.provider.listTree(destination.path, fields: [], maxEntries: limit)
            sourceTree = try await sourceAnswer
        }
        var walk = limits.walk(below: source.path)
        while !level.isEmpty {
            if Task.isCancelled { throw ProviderError(.cancelled, "cancelled while planning") }
            // Each folder's listings are taken out of the trees as the level reaches it, so a tree
            // holds only what the walk has yet to reach.
            if sourceTree != nil || destinationTree != nil {
                for index in level.indices {
                    level[index].sourceListing = sourceTree?.take(level[index].source)
                    if level[index].destinationExists { level[index].destinationListing = destinationTree?.take(level[index].destination) }
                }
            }
            // The children of this level's folders are one level further below the roots.
            try walk.descend()
            var next: [Folder] = []
            for (part, subfolders) in try await compareAll(level) {
                plan.actions += part.actions
                plan.mappedNames += part.mappedNames
                plan.problems += part.problems
                plan.nameConflicts += part.nameConflicts
                plan.skipped += part.skipped
                plan.scan.append(part.scan)
                plan.matchedBy.add(part.matchedBy)
                next += subfolders
                try walk.add(entries: part.scan.entries)
            }
            level = next
        }
        return plan
    }

    /// ``compare(_:)`` of every folder of `level`, at most ``listings`` at once, in the level's order.
    private func compareAll(_ level: [Folder]) async throws -> [(TransferPlan, [Folder])] {
        try await concurrentMap(level, limit: listings) { try await compare($0) }
    }

    /// Plans one folder's children; returns that part of the plan and the subfolders to walk next.
    ///
    /// Nothing is deleted on the strength of a whole-tree listing: a folder planned from one
    /// whose plan deletes anything is listed again on both sides, one folder each, and planned
    /// from those listings (a server that answered the tree short cannot cost a file).
    private func compare(_ folder: Folder) async throws -> (TransferPlan, [Folder]) {
        let planned = try await compareListed(folder)
        guard folder.sourceListing != nil || folder.destinationListing != nil,
            planned.0.actions.contains(where: { $0.kind == .delete })
        else { return planned }
        var listed = folder
        listed.sourceListing = nil
        listed.destinationListing = nil
        return try await compareListed(listed)
    }

    /// ``compare(_:)`` from the folder's listings at hand, listing what is not.
    private func compareListed(_ folder: Folder) async throws -> (TransferPlan, [Folder]) {
        var plan = TransferPlan(mode: mode, rule: rule)
        let given = folder.sourceListing
        async let fetched: FolderListing? = given == nil ? source.provider.listing(folder.source, pageSize: pageSize, fields: []) : nil
        let destinationItems: [Item]
        if !folder.destinationExists {
            destinationItems = []
        } else if let listed = folder.destinationListing {
            destinationItems = listed.items
        } else {
            destinationItems = try await destination.provider.listAll(folder.destination, pageSize: pageSize, fields: [])
        }
        let sourceListed: FolderListing
        if let given {
            sourceListed = given
        } else if let listed = try await fetched {
            sourceListed = listed
        } else {
            throw ProviderError(.invalidResponse, "no listing of \(folder.source)")
        }
        let sourceItems = sourceListed.items
        plan.scan.entries = sourceItems.count + destinationItems.count
        // The destination's items by the destination's identity of their names (bytes after its
        // normalisation and case folding). A key two items hold (a server keeping two spellings it
        // declares one name) is ambiguous: nothing is written over either.
        var existing: [NameKey: Item] = [:]
        var ambiguous: Set<NameKey> = []
        for item in destinationItems {
            let key = names.key(item.name)
            if existing[key] == nil { existing[key] = item } else { ambiguous.insert(key) }
        }
        // The source's children under their destination names, and the groups of them the
        // destination would make one name: each member of a group is a conflict, and none is
        // copied (whichever went first, the next would overwrite it or fail halfway).
        // Each source name is decoded by the source's rules and encoded for the destination, or
        // given the name a transfer the other way recorded, or the destination item the source
        // holds under it (its NFD spelling where the source stores NFC).
        let byImage = names.sourceNormalizes ? Self.byImage(destinationItems, names) : [:]
        let children = try sourceItems.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }).map { child in
            let relative = try folder.relative.appending(child.name)
            let (name, mapped) = destinationName(for: child.name, at: relative, existing: existing, byImage: byImage)
            return (child: child, relative: relative, name: name, mapped: mapped, key: names.key(name))
        }
        var group: [NameKey: [String]] = [:]
        for entry in children { group[entry.key, default: []].append(entry.child.name) }
        // Every source name keeps what the destination holds under it from a sync's deletions;
        // so does a link or special file the source holds (not transferred, but not absent).
        var claimed = Set(group.keys)
        for entry in sourceListed.skipped {
            claimed.insert(names.key(names.name(for: entry.name).name))
            plan.skipped.append(SkippedSource(relativePath: try folder.relative.appending(serverName: entry.name), entry: entry))
        }
        var next: [Folder] = []
        var computed = ComputedDigests()
        for (child, relative, name, mapped, key) in children {
            if let members = group[key], members.count > 1 {
                let others = members.filter { !$0.utf8.elementsEqual(child.name.utf8) }.map(Self.spelled)
                plan.problems.append(
                    TransferFailure(
                        relativePath: relative,
                        error: ProviderError(
                            .conflict,
                            "\(Self.spelled(child.name)) and \(others.joined(separator: ", ")) in \(folder.relative) would be one name on the destination (\(names.rules.identityDescription)): none of them is copied")))
                plan.nameConflicts.append(relative)
                continue
            }
            if ambiguous.contains(key) {
                plan.problems.append(
                    TransferFailure(
                        relativePath: relative,
                        error: ProviderError(
                            .conflict,
                            "the destination holds several items that are one name with \(relative) (\(names.rules.identityDescription)): none is overwritten")))
                plan.nameConflicts.append(relative)
                continue
            }
            let target: ItemPath
            do { target = try folder.destination.appending(name) } catch {
                plan.problems.append(TransferFailure(relativePath: relative, error: ProviderError.wrap(error, fallback: .invalidArgument)))
                continue
            }
            let there = existing[key]
            if mapped {
                let path = there.flatMap { $0.kind == child.kind ? $0.path : nil } ?? target
                plan.mappedNames.append(
                    names.mapping(
                        relative, sourceName: child.name, sent: name, existing: there?.name,
                        destinationPath: onDestination(path)))
            }
            let action = { (kind: TransferAction.Kind, reason: TransferAction.Reason?, destination: ItemPath) in
                TransferAction(
                    kind: kind, reason: reason, relativePath: relative, source: child.path, destination: destination,
                    isFolder: child.isFolder, size: child.isFolder ? nil : child.size, modified: child.modified,
                    sourceETag: child.isFolder ? nil : child.etag, sourceDigest: rule.algorithm.flatMap { child.digests[$0] })
            }
            if let there, there.kind != child.kind {
                guard mode == .sync else {
                    plan.problems.append(
                        TransferFailure(
                            relativePath: relative,
                            error: ProviderError(
                                .conflict, "\(relative) is a \(child.kind.rawValue) on the source and a \(there.kind.rawValue) on the destination")))
                    continue
                }
                plan.actions.append(
                    TransferAction(
                        kind: .delete, reason: .kindDiffers, relativePath: relative, source: nil, destination: there.path,
                        isFolder: there.isFolder, size: there.isFolder ? nil : there.size))
            }
            let matching = there.flatMap { $0.kind == child.kind ? $0 : nil }
            if child.isFolder {
                if let matching {
                    if let version = unchanged(relative, sourceETag: child.etag, destinationETag: matching.etag) {
                        plan.scan.unchanged.append(version)
                    } else {
                        next.append(
                            Folder(
                                relative: relative, source: child.path, destination: matching.path, destinationExists: true,
                                sourceETag: child.etag, destinationETag: matching.etag))
                    }
                } else {
                    plan.actions.append(action(.createFolder, there == nil ? TransferAction.Reason.missing : TransferAction.Reason.kindDiffers, target))
                    next.append(
                        Folder(relative: relative, source: child.path, destination: target, destinationExists: false, sourceETag: child.etag))
                }
            } else if let matching {
                if finished.stillValid(relative, source: child, destination: matching, algorithm: rule.algorithm) {
                    plan.actions.append(action(.skip, .finishedBefore, matching.path))
                    continue
                }
                let compared: (source: Item, destination: Item, recalled: Bool)
                do {
                    compared = try await withDigests(child, matching, into: &computed)
                } catch {
                    plan.problems.append(TransferFailure(relativePath: relative, error: ProviderError.wrap(error)))
                    continue
                }
                let verdict = rule.compare(compared.source, compared.destination)
                if verdict.same { plan.matchedBy.add(compared.recalled ? .sizeAndModified : verdict.basis) }
                var planned = action(verdict.same ? .skip : .copyFile, verdict.same ? nil : .differs, matching.path)
                planned.sourceDigest = rule.algorithm.flatMap { compared.source.digests[$0] }
                plan.actions.append(planned)
            } else {
                plan.actions.append(action(.copyFile, there == nil ? TransferAction.Reason.missing : TransferAction.Reason.kindDiffers, target))
            }
        }
        plan.scan.listed.append(
            FolderScan.Listed(
                relative: folder.relative, destination: folder.destination, sourceETag: folder.sourceETag,
                destinationETag: folder.destinationExists ? folder.destinationETag : nil, files: sourceItems.filter { !$0.isFolder }.count))
        if mode == .sync, !sourceListed.completeness.isComplete {
            // Nothing is deleted on the strength of a source listing that did not prove itself whole.
            plan.problems.append(
                TransferFailure(
                    relativePath: folder.relative,
                    error: ProviderError(
                        .preconditionFailed,
                        "\(folder.source) was read as \(sourceListed.completeness.phrase), not a complete one: nothing in \(folder.destination) is deleted")))
        } else if mode == .sync {
            // A destination item that the source could only hold under a name it holds for another
            // (it normalises names, calls NFC and NFD one, or folds their case) is not the source's
            // to delete: kept, and said.
            let guarded = names.sourceFolds
            let held = guarded ? Set(sourceItems.map { names.sourceIdentity(ofSourceName: $0.name) }) : []
            for item in destinationItems where !claimed.contains(names.key(item.name)) {
                if guarded, held.contains(names.sourceIdentity(of: item.name)) {
                    plan.problems.append(
                        TransferFailure(
                            relativePath: try folder.relative.appending(item.name),
                            error: ProviderError(
                                .conflict,
                                "\(item.path) is not deleted: the source cannot hold its name apart from another it holds "
                                    + "(\(names.sourceRules.identityDescription))")))
                    continue
                }
                plan.actions.append(
                    TransferAction(
                        kind: .delete, reason: .extra, relativePath: try folder.relative.appending(item.name), source: nil,
                        destination: item.path, isFolder: item.isFolder, size: item.isFolder ? nil : item.size))
            }
        }
        await remember(computed)
        return (plan, next)
    }

    /// Digests computed from files of each side, to keep in the store.
    struct ComputedDigests {
        var source: [ComputedDigest] = []
        var destination: [ComputedDigest] = []
    }

    /// Keeps digests computed from files in the store, for the next job (a failure to keep them
    /// only costs reading the files again).
    private func remember(_ computed: ComputedDigests) async {
        guard let digests else { return }
        if !computed.source.isEmpty { try? await digests.remember(digests: computed.source, account: source.provider.account) }
        if !computed.destination.isEmpty {
            try? await digests.remember(digests: computed.destination, account: destination.provider.account)
        }
    }

    /// The two files with the digest of the rule computed from their content where the rule
    /// computes it on their side and the comparison needs it (the sizes do not already tell the
    /// two apart): by default, a file lacking a digest the other file carries; with `checksum`,
    /// any file lacking it; with `content`, both files, read again whatever the listings say.
    /// Digests computed are added to `computed` (never for `content`); `recalled` tells that a
    /// digest was taken from the store for the same size, time and etag instead of read (by
    /// default only: `checksum` and `content` always read).
    private func withDigests(
        _ file: Item, _ other: Item, into computed: inout ComputedDigests
    ) async throws -> (source: Item, destination: Item, recalled: Bool) {
        guard let algorithm = rule.algorithm, !rule.computedOn.isEmpty || rule.comparesContent,
            file.size == nil || other.size == nil || file.size == other.size
        else { return (file, other, false) }
        let needs = { (side: SameFileRule.Side, item: Item, paired: Item) -> Bool in
            switch rule.kind {
            case .content: return true
            case .checksum: return item.digests[algorithm] == nil
            default: return rule.computedOn.contains(side) && item.digests[algorithm] == nil && paired.digests[algorithm] != nil
            }
        }
        // A digest kept for the same size, time and etag is not content: --checksum reads again.
        let (recall, keep) = (rule.kind == .digest, rule.kind != .content)
        let (readSource, readDestination) = (needs(.source, file, other), needs(.destination, other, file))
        // Both sides read at once where both are read (a content comparison).
        async let left: (Item, ComputedDigest?, Bool) =
            readSource ? withDigest(file, algorithm, from: source.provider, recall: recall, keep: keep) : (file, nil, false)
        async let right: (Item, ComputedDigest?, Bool) =
            readDestination ? withDigest(other, algorithm, from: destination.provider, recall: recall, keep: keep) : (other, nil, false)
        let (sourceFile, sourceDigest, sourceRecalled) = try await left
        let (destinationFile, destinationDigest, destinationRecalled) = try await right
        if let sourceDigest { computed.source.append(sourceDigest) }
        if let destinationDigest { computed.destination.append(destinationDigest) }
        return (sourceFile, destinationFile, sourceRecalled || destinationRecalled)
    }

    /// `file` with `algorithm`'s digest computed by reading it from `provider` (streamed: only the
    /// running digest is held).
    ///
    /// With a store and `recall`, a digest computed earlier from the same version of the file
    /// (size, modified time and etag; a file with neither a modified time nor an etag is always
    /// read) is taken from it instead of reading the file (and the third value is `true`); with
    /// `keep`, a digest computed now is returned to be kept there.
    private func withDigest(
        _ file: Item, _ algorithm: DigestAlgorithm, from provider: any StorageProvider, recall: Bool, keep: Bool
    ) async throws -> (Item, ComputedDigest?, Bool) {
        var computed = file
        computed.digests[algorithm] = nil
        guard let sink = DigestSink(algorithm) else { return (computed, nil, false) }
        let version = FileFingerprint(size: file.size, modified: file.modified, etag: file.etag)
        let memorable = digests != nil && (file.modified != nil || file.etag != nil)
        if recall, memorable, let digests,
            let known = try? await digests.digest(of: file.path, account: provider.account, algorithm: algorithm, version: version)
        {
            computed.digests[algorithm] = known
            return (computed, nil, true)
        }
        _ = try await provider.download(file.path, to: sink, options: DownloadOptions())
        let digest = await sink.digest
        computed.digests[algorithm] = digest
        guard keep, memorable, let digest else { return (computed, nil, false) }
        return (computed, ComputedDigest(path: file.path, algorithm: algorithm, digest: digest, version: version), false)
    }

    /// A single file: into the destination folder under its own name, or onto the destination path.
    private func planFile(_ file: Item, destinationRoot: Item?, into plan: inout TransferPlan) async throws {
        let relative = try ItemPath.root.appending(file.name)
        var target = destination.path
        var there = destinationRoot
        if let destinationRoot, destinationRoot.isFolder {
            let (name, mapped) = names.name(for: file.name)
            target = try destinationRoot.path.appending(name)
            if mapped { plan.mappedNames.append(names.mapping(relative, sourceName: file.name, sent: name, destinationPath: onDestination(target))) }
            there = try await destination.provider.itemIfExists(at: target)
        }
        if target.isRoot {
            throw ProviderError(.invalidArgument, "the destination's root is a folder; name the file to copy into it")
        }
        let action = { (kind: TransferAction.Kind, reason: TransferAction.Reason?) in
            TransferAction(
                kind: kind, reason: reason, relativePath: relative, source: file.path, destination: target, isFolder: false,
                size: file.size, modified: file.modified, sourceETag: file.etag, sourceDigest: rule.algorithm.flatMap { file.digests[$0] })
        }
        if let there, there.isFolder {
            plan.problems.append(
                TransferFailure(relativePath: relative, error: ProviderError(.conflict, "\(target) is a folder on the destination")))
        } else if let there, finished.stillValid(relative, source: file, destination: there, algorithm: rule.algorithm) {
            plan.actions.append(action(.skip, .finishedBefore))
        } else if let there {
            var computed = ComputedDigests()
            let compared = try await withDigests(file, there, into: &computed)
            await remember(computed)
            let verdict = rule.compare(compared.source, compared.destination)
            if verdict.same { plan.matchedBy.add(compared.recalled ? .sizeAndModified : verdict.basis) }
            var planned = verdict.same ? action(.skip, nil) : action(.copyFile, .differs)
            planned.sourceDigest = rule.algorithm.flatMap { compared.source.digests[$0] }
            plan.actions.append(planned)
        } else {
            plan.actions.append(action(.copyFile, .missing))
        }
    }

    /// The destination's name for the source's `name` at `relative`, and whether it is mapped: the
    /// name a transfer the other way recorded for the item, while the source still holds it under
    /// the name that one gave it; else ``DestinationNames/name(for:)``'s, or, where the destination
    /// has no item of that name and the source normalises names, the destination's item the source
    /// holds as `name` (its NFD spelling where the source stores NFC).
    private func destinationName(
        for name: String, at relative: ItemPath, existing: [NameKey: Item], byImage: [NameKey: Item]
    ) -> (name: String, mapped: Bool) {
        let stored = NameKey(exact: names.sourceRules.stored(name))
        if let recalled = recalled[relative], names.sourceImage(of: recalled) == stored {
            return (recalled, !recalled.utf8.elementsEqual(name.utf8) || !names.rules.stored(recalled).utf8.elementsEqual(recalled.utf8))
        }
        let forward = names.name(for: name)
        if existing[names.key(forward.name)] == nil, let item = byImage[stored] { return (item.name, true) }
        return forward
    }

    /// The destination's items by the name the source would hold for each
    /// (``DestinationNames/sourceImage(of:)``), the first in byte order where several share one.
    private static func byImage(_ items: [Item], _ names: DestinationNames) -> [NameKey: Item] {
        var index: [NameKey: Item] = [:]
        for item in items.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            let image = names.sourceImage(of: item.name)
            if index[image] == nil { index[image] = item }
        }
        return index
    }

    /// `path` below the destination's root, each name as the destination stores it.
    private func onDestination(_ path: ItemPath) -> ItemPath? {
        let segments = path.segments
        guard segments.count >= destination.path.depth else { return nil }
        var relative = ItemPath.root
        for segment in segments.dropFirst(destination.path.depth) {
            guard let next = try? relative.appending(names.rules.stored(segment)) else { return nil }
            relative = next
        }
        return relative
    }

    /// `name` quoted, with its non-ASCII scalars spelled out (`"cafe\u{301}.txt"`), so that two
    /// spellings that print alike differ in a message.
    private static func spelled(_ name: String) -> String {
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return name.debugDescription }
        let scalars = name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }
        return "\"" + scalars.joined() + "\""
    }
}
