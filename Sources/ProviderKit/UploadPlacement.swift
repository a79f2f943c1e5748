import Foundation
import ProviderAPI

/// How an upload may put its file under a name: the contract's conflict and precondition rules,
/// decided once for every adapter.
///
/// ``decide(existing:options:path:folderTaken:)`` applies the rules to one name;
/// ``place(_:in:options:checks:maxAttempts:folderTaken:candidate:existing:write:)`` runs the whole
/// upload, trying `name (1).ext`, `name (2).ext`, … (`ConflictNames`) under `ConflictPolicy.rename`
/// until a name is free. An adapter whose server keeps a rule itself (an exclusive create,
/// `If-Match`, no file over a folder, a name chosen by the server) says so with ``WriteChecks``,
/// and `place` then asks it nothing it need not know.
///
/// ```swift
/// let item = try await UploadPlacement.place(name, options: options,
///     existing: { candidate in try stat(folder.appending(candidate)) },
///     write: { candidate, placement in try await store(source, as: candidate, placement) })
/// ```
public enum UploadPlacement: Sendable, Hashable {
    /// Write the file whether or not one is at the name (replacing it).
    case replace
    /// Write the file only if the name is free; the write itself must fail with
    /// `ProviderError.Code.alreadyExists` otherwise (`O_EXCL`, `link`, `If-None-Match: *`).
    case exclusive

    /// The rules an adapter's write keeps by itself, so that
    /// ``UploadPlacement/place(_:in:options:checks:maxAttempts:folderTaken:candidate:existing:write:)``
    /// need not look at the name first. Without any (`[]`), every name is looked at before it is
    /// written: a server that cannot write exclusively is checked, then written.
    public struct WriteChecks: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        /// Creates checks from their raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// An ``UploadPlacement/exclusive`` write refuses a taken name with
        /// `ProviderError.Code.alreadyExists` (`If-None-Match: *`, `Overwrite: F`, `O_EXCL`).
        public static let exclusive = WriteChecks(rawValue: 1 << 0)
        /// The write carries `UploadOptions.ifMatch` to the server, which refuses a stale one (or
        /// one for a free name) with `ProviderError.Code.preconditionFailed`.
        public static let ifMatch = WriteChecks(rawValue: 1 << 1)
        /// An ``UploadPlacement/replace`` write never replaces a folder: the server refuses it.
        public static let folders = WriteChecks(rawValue: 1 << 2)
        /// Under `ConflictPolicy.rename`, an ``UploadPlacement/exclusive`` write stores the file
        /// under a free name the server picks (an `auto_rename`), so only the name asked for is
        /// written and the server's answer says where the file went.
        public static let renames = WriteChecks(rawValue: 1 << 3)
    }

    /// The placement for a name where `existing` is (`nil`: nothing), or `nil` when the name is
    /// taken and `ConflictPolicy.rename` asks for another.
    ///
    /// - An `ifMatch` that is not the existing item's etag (compared weakly, as "is this still
    ///   the version I saw": a server's `W/"x"` and `"x"` are one version), or given for a free
    ///   name, is `ProviderError.Code.preconditionFailed`.
    /// - A folder at the name is `folderTaken` (a file never replaces a folder) unless renaming.
    /// - `ConflictPolicy.fail` on a taken name is `ProviderError.Code.alreadyExists`, unless an
    ///   `ifMatch` that matched says which file to replace.
    /// - A free name is written ``exclusive``ly, except under `ConflictPolicy.overwrite`.
    ///
    /// - Parameters:
    ///   - existing: what is at the name (`nil`: nothing).
    ///   - options: the upload's options: its `ConflictPolicy` and `ifMatch`.
    ///   - path: the name's path, for messages.
    ///   - folderTaken: the error code of a folder at the name (a server's own, such as WebDAV's
    ///     `.conflict` for a `PUT` on a collection); `ProviderError.Code.alreadyExists` by default.
    public static func decide(
        existing: Item?, options: UploadOptions, path: ItemPath, folderTaken: ProviderError.Code = .alreadyExists
    ) throws -> UploadPlacement? {
        guard let existing else {
            if options.ifMatch != nil { throw ProviderError(.preconditionFailed, "\(path) does not exist") }
            return options.conflict == .overwrite ? .replace : .exclusive
        }
        if let ifMatch = options.ifMatch, !(existing.etag.map { ETag.weaklyEqual($0, ifMatch) } ?? false) {
            throw ProviderError(.preconditionFailed, "\(path) changed: its etag is \(existing.etag ?? "none"), not \(ifMatch)")
        }
        switch options.conflict {
        case .rename: return nil
        case _ where existing.isFolder: throw ProviderError(folderTaken, "\(path) is a folder, not a file")
        case .fail where options.ifMatch == nil: throw ProviderError(.alreadyExists, "\(path) already exists")
        case .fail, .overwrite: return .replace
        }
    }

    /// The placement a write takes without looking at the name, when `checks` keep every rule
    /// that applies to it; `nil` when the name must be looked at first (``decide(existing:options:path:folderTaken:)``).
    ///
    /// `ConflictPolicy.overwrite`, and `ConflictPolicy.fail` with an `ifMatch` (which names the file
    /// to replace), are ``replace``; the rest ``exclusive``.
    public static func unseen(options: UploadOptions, checks: WriteChecks) -> UploadPlacement? {
        if options.ifMatch != nil, !checks.contains(.ifMatch) { return nil }
        let replaces = options.conflict == .overwrite || (options.conflict == .fail && options.ifMatch != nil)
        if replaces { return checks.contains(.folders) ? .replace : nil }
        return checks.contains(.exclusive) || (options.conflict == .rename && checks.contains(.renames)) ? .exclusive : nil
    }

    /// Runs an upload of `name` with the rules of ``decide(existing:options:path:folderTaken:)``.
    ///
    /// A name is looked at only when ``unseen(options:checks:)`` says the write cannot keep the
    /// rules alone. Where the write is exclusive (``WriteChecks/exclusive``), a name seen free is
    /// written ``exclusive``ly also under `ConflictPolicy.overwrite`, so that a file or folder made
    /// there meanwhile is looked at again rather than replaced unseen.
    ///
    /// - Parameters:
    ///   - name: the name asked for, tried first.
    ///   - folder: the folder the name is in, for messages.
    ///   - options: the upload's options: its `ConflictPolicy` and `ifMatch`.
    ///   - checks: the rules the write keeps by itself (``WriteChecks``); a name is looked at
    ///     (`existing`) only when a rule that applies is not among them.
    ///   - maxAttempts: how many names `ConflictPolicy.rename` tries before giving up with
    ///     `ProviderError.Code.alreadyExists`.
    ///   - folderTaken: the error code of a folder at the name.
    ///   - candidate: the name to try at an attempt (0 is the name itself); `nil` numbers as
    ///     `name (1).ext`, a server's own numbering (`name-1.ext`) where its uploads use that.
    ///   - existing: what is at a candidate name now (`nil`: nothing).
    ///   - write: writes the file under the candidate name as the placement says; under
    ///     ``exclusive`` it throws `ProviderError.Code.alreadyExists` when the name was taken
    ///     meanwhile, and `ConflictPolicy.rename` then tries the next name.
    public static func place<Result>(
        _ name: String, in folder: ItemPath = .root, options: UploadOptions, checks: WriteChecks = [], maxAttempts: Int = 10_000,
        folderTaken: ProviderError.Code = .alreadyExists, candidate: ((String, Int) -> String)? = nil,
        existing: (String) async throws -> Item?, write: (String, UploadPlacement) async throws -> Result
    ) async throws -> Result {
        let serverRenames = options.conflict == .rename && checks.contains(.renames)
        let attempts = serverRenames ? 1 : max(1, maxAttempts)
        var attempt = 0
        var looks = 0
        while attempt < attempts {
            let candidate = candidate?(name, attempt) ?? ConflictNames.candidate(name, attempt: attempt)
            var placement: UploadPlacement
            var seenFree = false
            if let unseen = unseen(options: options, checks: checks) {
                placement = unseen
            } else {
                let seen = try await existing(candidate)
                let path = try folder.appending(candidate)
                guard let decided = try decide(existing: seen, options: options, path: path, folderTaken: folderTaken) else {
                    attempt += 1
                    continue
                }
                placement = decided
                // A name seen free is taken exclusively where the write can, also to replace: a
                // folder made there meanwhile is then refused, not replaced, and the name looked at again.
                if seen == nil, placement == .replace, checks.contains(.exclusive) {
                    placement = .exclusive
                    seenFree = true
                }
            }
            do {
                return try await write(candidate, placement)
            } catch let error as ProviderError where error.code == .alreadyExists && placement == .exclusive {
                if options.conflict == .rename, !serverRenames {
                    attempt += 1
                } else if seenFree, looks < 3 {
                    looks += 1
                } else {
                    throw error
                }
            }
        }
        throw ProviderError(.alreadyExists, "no free name for \(name) in \(folder) after \(maxAttempts) attempts")
    }
}
