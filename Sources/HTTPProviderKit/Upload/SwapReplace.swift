import Foundation
import ProviderAPI

/// Replaces an item on a server whose move refuses a taken name (no `Overwrite`), without losing
/// either version at any step: the old item is moved aside to a free hidden name, the new one is
/// moved in, then the one aside is deleted. If the move in fails, the old item is moved back.
///
/// The adapter gives what it knows how to ask: `move` (A to B, refusing a taken B with
/// `ProviderError.Code.alreadyExists` before moving anything), `find` (the item at a path, or
/// `nil`), and `delete`. Moving back and deleting the aside run through
/// ``RequestExecutor/cleanup(_:timeout:_:)``, so they are sent even after the caller was cancelled,
/// and from what `find` shows: a move whose answer was lost may have been made or not.
///
/// What is left where, at each step:
/// - The move aside fails: nothing moved (or, its answer lost, it is moved back); the move's error.
/// - The move in fails: the old item is back under its name, the new one still where it was
///   staged; the move's error. If the old one cannot go back (something took its name meanwhile,
///   or the move back fails), `ProviderError.Code.conflict` names where it is kept.
/// - The delete of the aside fails: the new item is in place and the replace succeeded; the old
///   one is reported in ``Outcome/leftAside`` (and logged), not lost.
/// - A crash between steps leaves both items, the old one under ``asideName(for:)``, which says
///   what it is: `.strata-replaced-<random>-<its name>`.
///
/// ```swift
/// let outcome = try await SwapReplace(executor: executor).replace(
///     target, with: staged,
///     move: { from, to in try await server.move(from, to: to) },
///     find: { path in try await server.listing(of: path.parent).item(named: path.name) },
///     delete: { path in try await server.delete(path) })
/// if let left = outcome.leftAside { print("the old file is kept as \(outcome.aside): \(left)") }
/// ```
public struct SwapReplace: Sendable {
    /// Moves `from` to `to`, refusing a taken `to` with `ProviderError.Code.alreadyExists`.
    public typealias Move = @Sendable (_ from: ItemPath, _ to: ItemPath) async throws -> Void
    /// The item at a path, or `nil` when there is none.
    public typealias Find = @Sendable (_ path: ItemPath) async throws -> Item?
    /// Deletes the item at a path.
    public typealias Delete = @Sendable (_ path: ItemPath) async throws -> Void

    /// What a replace did.
    public struct Outcome: Sendable, Hashable {
        /// Where the replaced item was kept while the new one moved in.
        public var aside: ItemPath
        /// Why the replaced item is still at ``aside`` (its delete failed), or `nil` when it was
        /// deleted. The new item is in place either way.
        public var leftAside: ProviderError?
    }

    /// The executor whose `cleanup` runs the moves back and the delete, and whose logger hears of their failures.
    let executor: RequestExecutor
    /// The longest each shielded step may take.
    let cleanupTimeout: Duration

    /// Creates a replace whose shielded steps run through `executor`, each bounded by `cleanupTimeout`.
    public init(executor: RequestExecutor, cleanupTimeout: Duration = RequestExecutor.defaultCleanupTimeout) {
        self.executor = executor
        self.cleanupTimeout = cleanupTimeout
    }

    /// A fresh name to keep `name` under while it is replaced: hidden, marked as Strata's, and
    /// ending with `name` (shortened from its start past 200 bytes, so its extension stays), as
    /// `.strata-replaced-<random>-report.pdf`.
    public static func asideName(for name: String) -> String {
        var kept = Substring(name)
        while kept.utf8.count > 200 { kept = kept.dropFirst() }
        return ".strata-replaced-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))-\(kept)"
    }

    /// Puts `staged` in place of the item at `target` (see the type's steps).
    ///
    /// - Returns: where the old item was kept, and whether it is still there.
    /// - Throws: the error of the move aside or the move in (the old item back under its name);
    ///   `ProviderError.Code.conflict` when it could not go back, naming where it is kept;
    ///   `ProviderError.Code.alreadyExists` when no free name was found beside `target`.
    @discardableResult
    public func replace(_ target: ItemPath, with staged: ItemPath, move: @escaping Move, find: @escaping Find, delete: @escaping Delete)
        async throws -> Outcome
    {
        let aside = try await freeAside(for: target, find: find)
        do {
            try await move(target, aside)
        } catch let error as ProviderError where error.code == .alreadyExists {
            throw error  // refused before anything moved
        } catch {
            try await putBack(aside, to: target, after: error, move: move, find: find)
            throw error
        }
        do {
            try await move(staged, target)
        } catch {
            try await putBack(aside, to: target, after: error, move: move, find: find)
            throw error
        }
        let left = await executor.cleanup("delete the replaced \(aside)", timeout: cleanupTimeout) { try await delete(aside) }
        return Outcome(aside: aside, leftAside: left)
    }

    /// A name beside `target` that nothing holds.
    func freeAside(for target: ItemPath, find: Find) async throws -> ItemPath {
        for _ in 0..<3 {
            let aside = try target.parent.appending(Self.asideName(for: target.name))
            if try await find(aside) == nil { return aside }
        }
        throw ProviderError(.alreadyExists, "no free name to keep \(target) under while it is replaced")
    }

    /// After a failed step: the old item goes back from `aside` to `target` if it is aside and
    /// nothing took its name; shielded from the caller's cancellation.
    func putBack(_ aside: ItemPath, to target: ItemPath, after error: any Error, move: @escaping Move, find: @escaping Find) async throws {
        let kept = ProviderError(
            .conflict,
            "\(target) could not be replaced (\(ProviderError.wrap(error).code)) and the old one could not be put back: it is kept as \(aside.name)")
        let failure = await executor.cleanup("move \(aside) back to \(target)", timeout: cleanupTimeout) {
            guard try await find(aside) != nil else { return }  // never moved aside
            guard try await find(target) == nil else { throw kept }
            try await move(aside, target)
        }
        if failure != nil { throw kept }
    }
}
