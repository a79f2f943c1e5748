import Foundation
import ProviderAPI

/// What a transfer does: copy or sync.
public enum TransferMode: String, Sendable, Hashable, Encodable {
    /// Make every file of the source present and the same on the destination; delete nothing.
    case copy
    /// Make the destination like the source: copy, then delete what the source does not have.
    case sync
}

/// One step of a ``TransferPlan``.
public struct TransferAction: Sendable, Hashable, Encodable {
    /// What the step does.
    public enum Kind: String, Sendable, Hashable, Encodable {
        /// Create a folder on the destination.
        case createFolder
        /// Copy a file from the source to the destination (streamed).
        case copyFile
        /// Leave a file that is the same on both sides.
        case skip
        /// Delete an item of the destination (sync only).
        case delete
    }

    /// Why a file is copied, or an item deleted.
    public enum Reason: String, Sendable, Hashable, Encodable {
        /// The destination has no item of that name.
        case missing
        /// The destination's file differs by the job's ``SameFileRule``.
        case differs
        /// The destination has a folder where the source has a file, or the reverse: it is
        /// deleted first (sync) or reported (copy).
        case kindDiffers
        /// The source has no item of that name (sync).
        case extra
        /// Skipped: an interrupted run of the same job sent this file, the source is still the
        /// version it sent, and the destination still the file it wrote (`TransferManager.Options.jobStore`).
        case finishedBefore
    }

    /// What the step does.
    public var kind: Kind
    /// Why, for copies and deletions.
    public var reason: Reason?
    /// Where the item is below the two roots, with the source's names.
    public var relativePath: ItemPath
    /// The item on the source, for folders created, files copied and skipped.
    public var source: ItemPath?
    /// The item on the destination, with the destination's names.
    public var destination: ItemPath
    /// Whether this item is a folder.
    public var isFolder: Bool
    /// The size of the file copied or skipped, where the source said; for a file deleted, its size on the destination.
    public var size: Int64?
    /// The source file's modified time, carried to the destination where it can set it.
    public var modified: Date?
    /// The source file's etag, where its provider gives one (kept with a finished file in the job store).
    package var sourceETag: String?
    /// The source file's digest by the job's ``SameFileRule``, where known (declared or computed).
    package var sourceDigest: String?

    /// Creates an action.
    package init(
        kind: Kind, reason: Reason? = nil, relativePath: ItemPath, source: ItemPath?, destination: ItemPath, isFolder: Bool,
        size: Int64? = nil, modified: Date? = nil, sourceETag: String? = nil, sourceDigest: String? = nil
    ) {
        self.sourceETag = sourceETag
        self.sourceDigest = sourceDigest
        self.kind = kind
        self.reason = reason
        self.relativePath = relativePath
        self.source = source
        self.destination = destination
        self.isFolder = isFolder
        self.size = size
        self.modified = modified
    }
}

/// A name the destination holds differently from the source: a name it refuses (or would read
/// as another) encoded with `ProviderAPI`'s `NameEncoder`, a look-alike of the source's decoded
/// back to the character it stands for, or a name the destination stores in another Unicode
/// normalisation. Each is reversible: read back from the destination, the name decodes to the
/// source's (a normalisation by the record the job store keeps, or by matching the listing).
public struct NameMapping: Sendable, Hashable, Encodable {
    /// Why a name is mapped.
    public enum Reason: String, Sendable, Hashable, Encodable {
        /// The destination refuses the name, or holds a look-alike it would decode as another
        /// character: it is encoded.
        case encoded
        /// The source holds look-alikes of characters it refuses: they are the characters again.
        case decoded
        /// The destination stores the name in another Unicode normalisation (NFC on Pydio).
        case normalized
    }

    /// The item, below the roots, with the source's names.
    public var relativePath: ItemPath
    /// The source's name.
    public var sourceName: String
    /// The name on the destination, as the destination stores it.
    public var destinationName: String
    /// Why the names differ.
    public var reason: Reason
    /// The item below the destination's root, with the destination's names as it stores them,
    /// where the plan knows it.
    public var destinationPath: ItemPath?

    /// Creates a mapping.
    package init(
        relativePath: ItemPath, sourceName: String, destinationName: String, reason: Reason = .encoded, destinationPath: ItemPath? = nil
    ) {
        self.destinationPath = destinationPath
        self.relativePath = relativePath
        self.sourceName = sourceName
        self.destinationName = destinationName
        self.reason = reason
    }

    /// Why, as the CLI prints it.
    public var explanation: String {
        switch reason {
        case .encoded: return "the destination refuses the name"
        case .decoded: return "the source's look-alike restored"
        case .normalized: return "the destination stores another Unicode normalisation"
        }
    }
}

/// An item a job could not plan or transfer, and why.
public struct TransferFailure: Sendable, Hashable, Encodable {
    /// The item, below the roots, with the source's names.
    public var relativePath: ItemPath
    /// The error's code, as `ProviderError` names it (`network`, `conflict`, …).
    package var code: String
    /// The error, with secrets removed.
    package var message: String
    /// The error itself.
    public var error: ProviderError

    /// Records `error` for the item at `relativePath`.
    package init(relativePath: ItemPath, error: ProviderError) {
        self.relativePath = relativePath
        self.code = error.code.description
        self.message = Redactor.redact(error.description)
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case relativePath, code, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(relativePath, forKey: .relativePath)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
    }
}
