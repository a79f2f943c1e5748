import Foundation

/// A name a listing found in a folder but did not give as an item: something that is neither a
/// file nor a folder, such as a symbolic link (never followed) or a FIFO, socket or device.
///
/// A transfer reports each (`skipped link a/b -> /etc/passwd`), counts them in its summary,
/// and never deletes the destination's item of the same name on the strength of the source
/// not listing it: the source does hold something there.
public struct SkippedEntry: Sendable, Hashable, Codable {
    /// What the name holds.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A symbolic link.
        case link
        /// A FIFO, a socket, a device or anything else that is not a file, folder or link.
        case special
    }

    /// The name in its folder.
    public var name: String
    /// What the name holds.
    public var kind: Kind
    /// Where a link points, as it is written (never resolved); `nil` for other kinds or when it
    /// could not be read.
    public var target: String?

    /// Creates a skipped entry.
    public init(name: String, kind: Kind, target: String? = nil) {
        self.name = name
        self.kind = kind
        self.target = target
    }
}
