import Foundation
import ProviderAPI

/// Refuses a copy or a sync whose two targets are one tree, or one inside the other, whatever
/// their spelling: before anything is written or deleted.
///
/// The targets' locations (`StorageProvider.location(of:)`) are compared first:
/// - **Different servers** (kinds of tree, schemes, ports, addresses; or server instances where
///   both know theirs): apart. Host names are resolved (`127.0.0.1`, `localhost` and `[::1]` are
///   one machine, as are all of this machine's addresses); user names play no part.
/// - **One server, one namespace**: the canonical absolute paths decide (the local adapter's
///   compare by device and inode, so links, bind mounts and `..` are seen through; names fold
///   case where the server does).
/// - **Cannot tell** (a location unknown, a host that does not resolve, one server with two
///   namespaces such as two users' files or two workspaces, which can share folders): an
///   ``OverlapProbe`` writes a marker file on each side in turn and looks for it from the other.
///   A dry run does not probe (it writes nothing). When the probe cannot run (a read-only
///   source), the job is refused unless ``TransferManager/Options/assumeNoOverlap`` is set.
///
/// A single file as source is never refused: copying a file onto itself changes nothing.
struct TreeOverlap: Sendable {
    let source: TransferEndpoint
    let destination: TransferEndpoint

    /// What the locations say.
    enum Verdict: Equatable {
        /// Not one tree.
        case apart
        /// The destination is the source, or inside it (at `relative` below it), or contains it
        /// (`relative` is then the source's place below the destination), as `text` says.
        case overlap(String)
        /// The locations cannot tell, for the reason given.
        case unknown(String)
    }

    /// Throws `invalidArgument` when the targets overlap, or may and the probe cannot show otherwise.
    func check(probe: Bool, assumeNoOverlap: Bool, limits: TreeLimits = .standard) async throws {
        let verdict = try await decide()
        if verdict == .apart { return }
        // A file as source: nothing to refuse (and nothing asked of the servers before this).
        if try await source.provider.item(at: source.path).kind == .file { return }
        switch verdict {
        case .apart: return
        case .overlap(let how): throw refusal(how)
        case .unknown(let why):
            if assumeNoOverlap || !probe { return }
            let found: String?
            do {
                found = try await OverlapProbe(source: source, destination: destination, limits: limits).run()
            } catch let error as ProviderError where error.code != .cancelled && error.code != .invalidResponse {
                throw ProviderError(
                    .invalidArgument,
                    "cannot tell whether \(spelling(source)) and \(spelling(destination)) are one tree (\(why)), and the marker "
                        + "probe could not run: \(error.message ?? "\(error.code)"); nothing was written. If they are not, say so (assumeNoOverlap, "
                        + "--assume-no-overlap)")
            }
            if let found { throw refusal(found + " (found by a marker file; \(why))") }
        }
    }

    /// The verdict of the two locations.
    func decide() async throws -> Verdict {
        let from = try await source.provider.location(of: source.path)
        let to = try await destination.provider.location(of: destination.path)
        guard let a = from.server, let b = to.server else { return .unknown("an adapter does not say where its files are") }
        switch await Self.sameServer(a, b) {
        case .some(false): return .apart
        case .none: return .unknown("the host names \(a.host ?? "?") and \(b.host ?? "?") may name one server")
        case .some(true): break
        }
        guard from.namespace == to.namespace else {
            return .unknown("one server, trees \"\(from.namespace)\" and \"\(to.namespace)\" that may share folders")
        }
        let fold = from.caseInsensitive || to.caseInsensitive
        if let below = Self.position(of: to, in: from, fold: fold) {
            return .overlap(below.isEmpty ? "they are the same folder" : "the destination is inside the source, at \(Self.text(below))")
        }
        if let below = Self.position(of: from, in: to, fold: fold) {
            return .overlap("the source is inside the destination, at \(Self.text(below))")
        }
        return .apart
    }

    /// Whether two identities are one server: `nil` when a host cannot be resolved.
    static func sameServer(_ a: ServerIdentity, _ b: ServerIdentity) async -> Bool? {
        guard a.family == b.family else { return false }
        if let one = a.instance, let other = b.instance { return one == other }
        guard a.scheme == b.scheme, a.port == b.port else { return false }
        guard let first = a.host, let second = b.host else { return a.host == nil && b.host == nil }
        if first == second { return true }
        guard let addresses = await HostAddresses.resolve(first), let others = await HostAddresses.resolve(second) else { return nil }
        if !addresses.isDisjoint(with: others) { return true }
        let local = HostAddresses.local()
        let here = { (set: Set<String>) in set.allSatisfy { HostAddresses.isThisMachine($0, local: local) } }
        return here(addresses) && here(others)
    }

    /// The names of `inner` below `outer` when `outer` is `inner` or one of its folders, else `nil`.
    ///
    /// Where folders carry ids (device and inode), they decide: `outer`'s id among `inner`'s. A
    /// part of `outer` that does not exist yet (a destination to create) must then follow in
    /// `inner`'s names. Without ids the names decide, folded where the server folds case, and
    /// compared as Swift strings, which also takes NFC and NFD for one name: for this question
    /// too many matches only refuse a job, too few could lose a tree.
    static func position(of inner: TreeLocation, in outer: TreeLocation, fold: Bool) -> [String]? {
        func same(_ x: String, _ y: String) -> Bool { fold ? x.lowercased() == y.lowercased() : x == y }
        let existing = outer.path.lastIndex(where: { $0.id != nil })
        if let existing, inner.path.contains(where: { $0.id != nil }) {
            guard let id = outer.path[existing].id, let at = inner.path.lastIndex(where: { $0.id == id }) else { return nil }
            let missing = outer.path[(existing + 1)...].map(\.name)
            let below = inner.path[(at + 1)...].map(\.name)
            guard below.count >= missing.count, zip(missing, below).allSatisfy({ same($0, $1) }) else { return nil }
            return Array(below.dropFirst(missing.count))
        }
        guard inner.path.count >= outer.path.count, zip(outer.path, inner.path).allSatisfy({ same($0.name, $1.name) }) else { return nil }
        return inner.path.dropFirst(outer.path.count).map(\.name)
    }

    static func text(_ names: [String]) -> String { "/" + names.joined(separator: "/") }

    private func spelling(_ endpoint: TransferEndpoint) -> String { "\(endpoint.provider.account) \(endpoint.path)" }

    private func refusal(_ how: String) -> ProviderError {
        ProviderError(
            .invalidArgument,
            "\(spelling(source)) and \(spelling(destination)) resolve to one tree (\(how)): a tree cannot be copied or synced "
                + "into itself, its parent or its child; nothing was written or deleted")
    }
}
