import Foundation
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes providers of local folders for `file` URLs and plain paths: the adapter of kind `local`.
///
/// Each provider opens its folder by descriptor and never follows a symbolic link out of it; it
/// passes the whole conformance suite. Register the factory and make providers through the
/// registry, or call ``makeProvider(_:)`` with a configuration whose URL names the folder.
///
/// ```swift
/// registry.register(LocalProviderFactory())
/// // Confined to /srv/files: the registry roots the provider at the URL.
/// let (files, _) = try await registry.provider(for: URL(fileURLWithPath: "/srv/files"), root: .url)
/// // A URL naming an item: the provider is rooted at the file system's root, path /srv/files/q3.pdf.
/// let (provider, path) = try await registry.provider(for: URL(fileURLWithPath: "/srv/files/q3.pdf"))
/// ```
public struct LocalProviderFactory: ProviderFactory {
    public var kind: String { "local" }
    public var schemes: [String: String] { ["file": "file"] }

    /// A factory.
    public init() {}

    /// A provider rooted at the folder `configuration.url` names, confined to it.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not a `file` URL, and the
    ///   error of opening the folder (`ProviderError.Code.notFound` for a missing one).
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        try LocalProvider(root: configuration.url)
    }

    /// Splits a `file` URL naming an item into the file system's root and the item's absolute
    /// path, as a command line takes paths: `/srv/files/q3.pdf` is `/` and `/srv/files/q3.pdf`, so
    /// a copy or move names its destination as an absolute path, and removing a folder works as
    /// for any other item.
    ///
    /// Symbolic links among the folders above the item are resolved first (such as `/tmp` on
    /// macOS): the user chose that path. The item itself is never resolved: a link named last is
    /// a link, which the provider does not follow (removing it must not remove its target). To
    /// confine a provider to a folder, make it for that folder's URL (``makeProvider(_:)``).
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not a local `file` URL.
    public func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        guard url.isFileURL, url.host.map({ $0.isEmpty || $0 == "localhost" }) ?? true else {
            throw ProviderError(.invalidArgument, "\(Redactor.redact(url: url)) is not a local file URL")
        }
        let segments = url.standardizedFileURL.path.split(separator: "/").map(String.init)
        guard let last = segments.last else { return (URL(fileURLWithPath: "/", isDirectory: true), .root) }
        let parent = Self.resolved("/" + segments.dropLast().joined(separator: "/"))
        let parentSegments = parent.split(separator: "/").map(String.init)
        return (URL(fileURLWithPath: "/", isDirectory: true), try ItemPath(segments: parentSegments + [last]))
    }

    /// `path` with the symbolic links of its longest existing prefix resolved.
    static func resolved(_ path: String) -> String {
        var head = path
        var tail: [String] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                let base = String(cString: real)
                if tail.isEmpty { return base }
                return (base == "/" ? "" : base) + "/" + tail.reversed().joined(separator: "/")
            }
            guard head != "/", !head.isEmpty else { return path }
            let url = URL(fileURLWithPath: head)
            tail.append(url.lastPathComponent)
            head = url.deletingLastPathComponent().path
        }
    }
}
