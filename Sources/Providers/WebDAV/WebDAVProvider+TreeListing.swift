import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit
import HTTPProviderKit

extension WebDAVProvider {
    /// The whole tree below `folder` from one `PROPFIND` with `Depth: infinity`, where the server
    /// was shown to answer it right; `nil` (and no request) where it was shown not to.
    ///
    /// A 207 proves nothing by itself (sabre/dav answers one level only, quietly): until the
    /// server is proven, one folder of the answer that has children in it is listed again with
    /// `Depth: 1` and the two are compared (names as bytes, kinds). Equal, the server is proven
    /// and the verdict kept with the profile; different, refused (403, 400, 501…), or an answer
    /// that contradicts itself (an entry outside `folder`, an entry whose parent is not a folder
    /// of the answer, a path twice), it is kept as not honouring `Depth: infinity`. An answer
    /// whose subfolders hold nothing in it proves only the root's children (when it names any):
    /// the tree then covers the root alone, and one subfolder is listed to tell a one-level
    /// answer, which is kept as not honouring. The ownCloud/Nextcloud dialects are not asked
    /// (Nextcloud refuses `Depth: infinity` by default; their recursive etags already spare
    /// unchanged trees).
    public func listTree(_ folder: ItemPath, fields: ItemFields, maxEntries: Int) async throws -> TreeListing? {
        guard dialect == nil, probed.honoursDepthInfinity != false else { return nil }
        let answer: TreeAnswer
        do {
            guard let read = try await readTree(folder, fields: fields, maxEntries: maxEntries) else { return nil }
            answer = read
        } catch let failure as ProviderError {
            if failure.code == .cancelled { throw failure }
            // A status that says nothing of Depth: infinity (missing folder, login, a busy server)
            // is not kept; the walk that follows meets it again and says it.
            if let status = failure.httpStatus, ![401, 404, 408, 429, 502, 503, 504].contains(status) {
                await keepTreeVerdict(false)
            } else if failure.code == .invalidResponse {
                await keepTreeVerdict(false)
            }
            return nil
        } catch is TreeContradiction {
            await keepTreeVerdict(false)
            return nil
        }
        if probed.honoursDepthInfinity == true { return answer.listing(of: folder) }
        return try await proveTree(answer, folder: folder, fields: fields)
    }

    /// Compares one folder of an unproven answer with its `Depth: 1` listing, keeps the verdict,
    /// and returns what the answer may be trusted for.
    private func proveTree(_ answer: TreeAnswer, folder: ItemPath, fields: ItemFields) async throws -> TreeListing? {
        // The first folder below the root (in path order) that has children in the answer.
        let witness = answer.children.keys.filter { $0 != folder && !(answer.children[$0] ?? []).isEmpty }.min()
        guard let witness else {
            // One level only (sabre/dav), empty subfolders, or no subfolder at all: nothing below
            // the root to compare. The root's children are right if the answer named any (the
            // server went one level down, as Depth: 1 does); an answer with none may be a server
            // that took infinity for 0, and proves nothing. One subfolder's Depth: 1 listing tells
            // a one-level answer, which is kept as not honouring.
            let rootItems = answer.children[folder] ?? []
            if rootItems.isEmpty { return nil }
            if let first = rootItems.filter({ $0.kind == .folder }).map(\.path).min(),
                let probe = try? await fetchListing(first, fields: fields), !probe.items.isEmpty
            {
                await keepTreeVerdict(false)
            }
            return answer.listing(of: folder, only: folder)
        }
        guard let direct = try? await fetchListing(witness, fields: fields), direct.completeness.isComplete else { return nil }
        var fromTree = answer.children[witness] ?? []
        WebDAVProvider.sortByName(&fromTree)
        let same = direct.items.count == fromTree.count
            && zip(direct.items, fromTree).allSatisfy { $0.name.utf8.elementsEqual($1.name.utf8) && $0.kind == $1.kind }
        await keepTreeVerdict(same)
        return same ? answer.listing(of: folder) : nil
    }

    /// Reads and checks the `Depth: infinity` answer: `nil` when it holds more than `maxEntries`
    /// entries or entries it does not describe (an error status, an unusable href), which prove
    /// nothing either way; ``TreeContradiction`` when it contradicts itself.
    private func readTree(_ folder: ItemPath, fields: ItemFields, maxEntries: Int) async throws -> TreeAnswer? {
        let collected = NIOLockedValueBox(TreeAnswer(root: folder))
        _ = try await propfind(
            folder, depth: "infinity", body: propfindItemsBody(fields), folder: true, itemFields: dialect == nil,
            each: { [self] entry in
                if collected.withLockedValue({ $0.unusable || $0.count > maxEntries }) { return }
                guard entry.status.map({ (200..<300).contains($0) }) ?? true, !DAVPathMapper.hasRawQueryOrFragment(entry.href),
                    let answered = try? mapper.path(forHref: entry.href)
                else {
                    collected.withLockedValue { $0.unusable = true }
                    return
                }
                let item = try makeItem(entry, expected: nil)
                try collected.withLockedValue { try $0.add(item, answered: answered) }
            })
        let answer = collected.withLockedValue { $0 }
        if answer.unusable || answer.count > maxEntries { return nil }
        try answer.check()
        return answer
    }

    /// Keeps whether the server honours `Depth: infinity` in the profile, and the profile in the
    /// server facts for a day.
    private func keepTreeVerdict(_ honours: Bool) async {
        let changed = probedBox.withLockedValue { profile -> WebDAVServerProfile? in
            guard profile.honoursDepthInfinity != honours else { return nil }
            profile.honoursDepthInfinity = honours
            return profile
        }
        guard let changed else { return }
        logger.debug("the server \(honours ? "lists" : "does not list") whole trees with Depth: infinity")
        await WebDAVKeptProfile.keep(changed, in: treeVerdictStore.store, root: mapper.root, user: treeVerdictStore.user)
    }
}

/// A `Depth: infinity` answer that contradicts itself.
struct TreeContradiction: Error {
    var reason: String
}

/// The entries of a `Depth: infinity` answer, by the folder they are in.
struct TreeAnswer: Sendable {
    let root: ItemPath
    /// The children of each folder the answer names (every folder of the answer has a key).
    var children: [ItemPath: [Item]] = [:]
    var seen: Set<ItemPath> = []
    /// The folders the answer names.
    var folders: Set<ItemPath> = []
    var count = 0
    var sawRoot = false
    /// An entry the answer does not describe: the answer proves nothing.
    var unusable = false

    init(root: ItemPath) {
        self.root = root
        children[root] = []
    }

    /// Files `item` under its parent, below the caller's spelling of the root.
    mutating func add(_ item: Item, answered: ItemPath) throws {
        count += 1
        let segments = answered.segments
        let rootSegments = root.segments
        guard segments.count >= rootSegments.count, Array(segments.prefix(rootSegments.count)) == rootSegments else {
            throw TreeContradiction(reason: "\(answered) is not below \(root)")
        }
        if segments.count == rootSegments.count {
            guard item.kind == .folder, !sawRoot else { throw TreeContradiction(reason: "the root answered twice or as a file") }
            sawRoot = true
            return
        }
        var path = root
        for name in segments.dropFirst(rootSegments.count) { path = try path.appending(name) }
        guard seen.insert(path).inserted else { throw TreeContradiction(reason: "\(path) answered twice") }
        var placed = item
        placed.path = path
        children[path.parent, default: []].append(placed)
        if placed.kind == .folder {
            folders.insert(path)
            if children[path] == nil { children[path] = [] }
        }
    }

    /// Every entry's parent is the root or a folder of the answer.
    func check() throws {
        guard sawRoot else { throw TreeContradiction(reason: "the answer did not name its root") }
        for parent in children.keys where parent != root {
            guard folders.contains(parent) else { throw TreeContradiction(reason: "\(parent) has children but is not a folder of the answer") }
        }
    }

    /// The tree listing of `root`: every folder of the answer, or `only` that one.
    func listing(of root: ItemPath, only: ItemPath? = nil) -> TreeListing {
        var folders: [ItemPath: FolderListing] = [:]
        for (folder, items) in children where only.map({ $0 == folder }) ?? true {
            var sorted = items
            WebDAVProvider.sortByName(&sorted)
            folders[folder] = FolderListing(items: sorted, completeness: .ended)
        }
        return TreeListing(root: root, folders: folders)
    }
}
