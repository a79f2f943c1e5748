import Foundation
import ProviderAPI

/// How an upload may put its file under a name: the contract's conflict and precondition rules,
/// decided once for every adapter.
///
/// ``decide(existing:options:path:)`` applies the rules to one name; ``place(_:in:options:maxAttempts:existing:write:)``
/// runs the whole upload, trying `name (1).ext`, `name (2).ext`, … (`ConflictNames`) under
/// `ConflictPolicy.rename` until a name is free.
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

    /// The placement for a name where `existing` is (`nil`: nothing), or `nil` when the name is
    /// taken and `ConflictPolicy.rename` asks for another.
    ///
    /// - An `ifMatch` that is not the existing item's etag, or given for a free name, is
    ///   `ProviderError.Code.preconditionFailed`.
    /// - A folder at the name is `ProviderError.Code.alreadyExists` (a file never replaces a folder) unless renaming.
    /// - `ConflictPolicy.fail` on a taken name is `ProviderError.Code.alreadyExists`, unless an
    ///   `ifMatch` that matched says which file to replace.
    /// - A free name is written ``exclusive``ly, except under `ConflictPolicy.overwrite`.
    public static func decide(existing: Item?, options: UploadOptions, path: ItemPath) throws -> UploadPlacement? {
        guard let existing else {
            if options.ifMatch != nil { throw ProviderError(.preconditionFailed, "\(path) does not exist") }
            return options.conflict == .overwrite ? .replace : .exclusive
        }
        if let ifMatch = options.ifMatch, ifMatch != existing.etag {
            throw ProviderError(.preconditionFailed, "\(path) changed: its etag is \(existing.etag ?? "none"), not \(ifMatch)")
        }
        switch options.conflict {
        case .rename: return nil
        case _ where existing.isFolder: throw ProviderError(.alreadyExists, "\(path) is a folder")
        case .fail where options.ifMatch == nil: throw ProviderError(.alreadyExists, "\(path) already exists")
        case .fail, .overwrite: return .replace
        }
    }

    /// Runs an upload of `name` with the rules of ``decide(existing:options:path:)``.
    ///
    /// - Parameters:
    ///   - name: the name asked for, tried first.
    ///   - folder: the folder the name is in, for messages.
    ///   - options: the upload's options: its `ConflictPolicy` and `ifMatch`.
    ///   - maxAttempts: how many names `ConflictPolicy.rename` tries before giving up with
    ///     `ProviderError.Code.alreadyExists`.
    ///   - existing: what is at a candidate name now (`nil`: nothing).
    ///   - write: writes the file under the candidate name as the placement says; under
    ///     ``exclusive`` it throws `ProviderError.Code.alreadyExists` when the name was taken
    ///     meanwhile, and `ConflictPolicy.rename` then tries the next name.
    public static func place<Result>(
        _ name: String, in folder: ItemPath = .root, options: UploadOptions, maxAttempts: Int = 10_000,
        existing: (String) async throws -> Item?, write: (String, UploadPlacement) async throws -> Result
    ) async throws -> Result {
        for attempt in 0..<max(1, maxAttempts) {
            let candidate = ConflictNames.candidate(name, attempt: attempt)
            let path = try folder.appending(candidate)
            guard let placement = try decide(existing: try await existing(candidate), options: options, path: path) else { continue }
            do {
                return try await write(candidate, placement)
            } catch let error as ProviderError where error.code == .alreadyExists && placement == .exclusive && options.conflict == .rename {
                continue
            }
        }
        throw ProviderError(.alreadyExists, "no free name for \(name) in \(folder) after \(maxAttempts) attempts")
    }
}
