import ProviderAPI

/// What a job keeps of each folder's etags where both providers' folder etags are recursive
/// (`Capabilities.Features.recursiveETags`: a folder's etag changes when anything below it
/// changes), so that its next run lists only the folders on the way to a change.
///
/// After a run that finished with no failure, each folder found or made the same on both sides is
/// recorded with its etag on each side (``FolderVersion``): the source's as it was listed (a change
/// made meanwhile shows as a new etag next time), the destination's as listed where the run wrote
/// nothing below it, else read again once the run is over. A `check` records the folders it found
/// the same. The record is used only by the same job (``TransferJobKey``) with the same settings
/// (``settings``), and only where both sides declare recursive etags: one side's etag alone never
/// shows a tree unchanged. A side in front of another (``FrontingProvider``, such as `CachedProvider`) counts by its base's capabilities;
/// while it holds offline writes waiting in its journal (which its listings show and its server's
/// etags do not), the record is neither used nor made.
struct FolderRecord: Sendable {
    let key: TransferJobKey
    let store: any TransferJobStore
    /// The rule and options a record was made with; a record made with others is not used.
    let settings: String
    /// The two sides, as the job reaches them.
    let sides: [any StorageProvider]

    /// The record of the job of `key` in `store`, or `nil` when the two sides' folder etags do not
    /// both cover their contents.
    init?(_ key: TransferJobKey, store: any TransferJobStore, source: TransferEndpoint, destination: TransferEndpoint, rule: SameFileRule) {
        guard source.provider.capabilities.features.contains(.recursiveETags),
            destination.provider.capabilities.features.contains(.recursiveETags)
        else { return nil }
        self.key = key
        self.store = store
        sides = [source.provider, destination.provider]
        let computed = [SameFileRule.Side.source, .destination].filter(rule.computedOn.contains).map(\.rawValue).joined(separator: "+")
        settings =
            "rule=\(rule.kind.rawValue) algorithm=\(rule.algorithm?.rawValue ?? "-") computed=\(computed.isEmpty ? "-" : computed) "
            + "later=\(rule.laterSide?.rawValue ?? "-") tolerance=\(rule.tolerance.map { "\($0)" } ?? "-")"
    }

    /// The folders recorded by the job's last finished run (a record that cannot be read is none:
    /// it costs listings, never a wrong answer).
    func known() async -> [ItemPath: FolderVersion] {
        guard await !hasWaitingWrites() else { return [:] }
        return (try? await store.folderVersions(of: key, settings: settings)) ?? [:]
    }

    /// Whether either side stands in front of another provider (``FrontingProvider``, such as an
    /// offline cache) and holds writes not yet sent to it (one that cannot tell counts as holding some).
    private func hasWaitingWrites() async -> Bool {
        for case let front as any FrontingProvider in sides where await front.holdsUnsentWrites() {
            return true
        }
        return false
    }

    /// Records the folders of `plan` after it ran with no failure (`wrote`: the run changed the
    /// destination; else, as for a check, only the folders with nothing different below are
    /// recorded). `known` is the record the plan was made with (``known()``), whose folders below
    /// those the plan left unlisted still hold. The destination folders the run wrote below are
    /// read again, up to `concurrency` at once.
    func record(
        _ plan: TransferPlan, known: [ItemPath: FolderVersion]?, wrote: Bool, destination: any StorageProvider, concurrency: Int
    ) async {
        guard await !hasWaitingWrites() else { return }
        let listed = plan.scan.listed
        // Folders with an action or a problem at or below them.
        var dirty: Set<ItemPath> = []
        for path in plan.actions.filter({ $0.kind != .skip }).map(\.relativePath) + plan.problems.map(\.relativePath) {
            dirty.insert(path)
            var parent = path
            while !parent.isRoot {
                parent = parent.parent
                dirty.insert(parent)
            }
        }
        // Files below each folder: its own, and those of its subfolders, listed or not.
        var files: [ItemPath: Int] = [:]
        for folder in listed { files[folder.relative, default: 0] += folder.files }
        for version in plan.scan.unchanged { files[version.relativePath, default: 0] += version.files }
        for path in Set(files.keys).sorted(by: { $0.depth > $1.depth }) where !path.isRoot {
            files[path.parent, default: 0] += files[path] ?? 0
        }
        // The destination's etag of each listed folder: as listed, or read again where the run wrote below it.
        let reread = wrote ? listed.filter { dirty.contains($0.relative) } : []
        let fresh = await TransferRun.concurrently(reread, limit: concurrency, unstarted: nil) { folder -> String? in
            try? await destination.item(at: folder.destination).etag
        }
        var destinationETags: [ItemPath: String] = [:]
        for (folder, etag) in zip(reread, fresh) { destinationETags[folder.relative] = etag }
        var versions: [FolderVersion] = []
        for folder in listed {
            let destinationETag = dirty.contains(folder.relative) ? destinationETags[folder.relative] : folder.destinationETag
            guard let sourceETag = folder.sourceETag, let destinationETag else { continue }
            versions.append(
                FolderVersion(
                    relativePath: folder.relative, sourceETag: sourceETag, destinationETag: destinationETag, files: files[folder.relative] ?? 0))
        }
        // Below a folder left unlisted, the earlier record still holds.
        let kept = Set(plan.scan.unchanged.map(\.relativePath))
        if !kept.isEmpty {
            for version in (known ?? [:]).values where Self.isAtOrBelow(version.relativePath, any: kept) {
                versions.append(version)
            }
        }
        try? await store.replaceFolderVersions(of: key, settings: settings, with: versions)
    }

    /// Whether `path` or one of its ancestors is in `folders`.
    private static func isAtOrBelow(_ path: ItemPath, any folders: Set<ItemPath>) -> Bool {
        var current = path
        while true {
            if folders.contains(current) { return true }
            if current.isRoot { return false }
            current = current.parent
        }
    }
}
