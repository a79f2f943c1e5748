import ProviderAPI

/// A link or special file of the source, where it is below the job's root: reported, never
/// transferred (`skipped link a/b -> /etc/passwd`).
public struct SkippedSource: Sendable, Hashable, Encodable {
    /// Below the job's roots.
    public var relativePath: ItemPath
    /// What the source's listing said of it.
    public var entry: SkippedEntry

    /// Creates a skipped source entry.
    package init(relativePath: ItemPath, entry: SkippedEntry) {
        self.relativePath = relativePath
        self.entry = entry
    }

    /// `link a/b -> /etc/passwd`, `special file a/c`: how the command line prints it, after `skipped `.
    public var text: String {
        let path = relativePath.isRoot ? "." : relativePath.description.dropFirst()
        switch entry.kind {
        case .link: return "link \(path)" + (entry.target.map { " -> \($0)" } ?? "")
        case .special: return "special file \(path) (a FIFO, socket or device)"
        }
    }
}
