import Foundation
import ProviderAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes ``LocalProvider``s for `file` URLs: the adapter of kind `local`.
///
/// ```swift
/// registry.register(LocalProviderFactory())
/// let (provider, path) = try registry.resolve(URL(fileURLWithPath: "/srv/files/q3.pdf"))
/// // provider is rooted at /srv/files, path is /q3.pdf
/// ```
public struct LocalProviderFactory: ProviderFactory {
    public var kind: String { "local" }
    public var schemes: [String: String] { ["file": "file"] }

    /// A factory.
    public init() {}

    /// A provider rooted at the folder `configuration.url` names (``LocalProvider/init(root:)``).
    public func makeProvider(_ configuration: ProviderConfiguration) throws -> any StorageProvider {
        try LocalProvider(root: configuration.url)
    }

    /// Splits a `file` URL: one naming an existing folder (symbolic links in it followed) is the
    /// root, with the path `/`; anything else is the last segment (the path, such as `/q3.pdf`)
    /// in its parent folder (the root), whether or not it exists yet.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not a local `file` URL.
    public func locate(_ url: URL) throws -> (root: URL, path: ItemPath) {
        guard url.isFileURL, url.host.map({ $0.isEmpty || $0 == "localhost" }) ?? true else {
            throw ProviderError(.invalidArgument, "\(Redactor.redact(url: url)) is not a local file URL")
        }
        let path = url.path
        var info = stat()
        if path.isEmpty || path == "/" || (stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) {
            return (URL(fileURLWithPath: path.isEmpty ? "/" : path, isDirectory: true), .root)
        }
        let file = URL(fileURLWithPath: path)
        return (file.deletingLastPathComponent(), try ItemPath(segments: [file.lastPathComponent]))
    }
}
