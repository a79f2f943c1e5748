import Foundation
import ProviderAPI

/// An `http`/`https` URL split after the path of the web application that serves it (its
/// context or base path): `https://host/nuxeo/default-domain/workspaces` is the application at
/// `https://host/nuxeo` and the segments `default-domain`, `workspaces` below it.
///
/// An adapter whose server lives under such a path reads its configuration's URL with it once,
/// taking the application's path from an option or, by default, the URL's first segment:
///
/// ```swift
/// let split = try ApplicationURL(configuration.url, applicationPath: options.contextPath,
///                                expected: "a Nuxeo URL is http(s)://host/nuxeo/path")
/// let base = try split.url(trailingSlash: false)   // https://host/nuxeo
/// let root = "/" + split.remainder.joined(separator: "/")
/// ```
package struct ApplicationURL: Sendable, Hashable {
    /// The application's path segments, percent-decoded: `["nuxeo"]`, none for an application
    /// at the server's root.
    package var applicationPath: [String]
    /// The path segments below the application, percent-decoded.
    package var remainder: [String]
    /// The scheme, host and port of the URL, without user, password, path, query or fragment.
    private var origin: URLComponents
    /// The URL as it was given, secrets removed, for errors.
    private var given: String

    /// Splits `url` after `applicationPath`.
    ///
    /// - Parameters:
    ///   - url: an `http` or `https` URL with a host.
    ///   - applicationPath: the application's path, such as `/nuxeo` (`/` for none); `nil` takes
    ///     the URL's first segment.
    ///   - expected: what such a URL looks like, said when `url` is not one, such as
    ///     `"a Nuxeo URL is http(s)://host/nuxeo/path"`.
    /// - Throws: `ProviderError.Code.invalidArgument` for a URL that is not `http`/`https` with a
    ///   host, whose port is not in 1…65535, or whose path does not start with `applicationPath`.
    package init(_ url: URL, applicationPath: String?, expected: String) throws {
        try URLChecks.requireValidPort(url)
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw ProviderError(.invalidArgument, "\(expected), not \(Redactor.redact(url: url))")
        }
        let segments = components.percentEncodedPath.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let application = applicationPath.map { $0.split(separator: "/").map(String.init) } ?? Array(segments.prefix(1))
        guard segments.starts(with: application) else {
            throw ProviderError(
                .invalidArgument, "the URL path does not start with the application's path /\(application.joined(separator: "/"))")
        }
        components.user = nil
        components.password = nil
        components.percentEncodedPath = ""
        components.query = nil
        components.fragment = nil
        self.applicationPath = application
        remainder = Array(segments.dropFirst(application.count))
        origin = components
        given = Redactor.redact(url: url)
    }

    /// The application's URL: `https://host/nuxeo`, or `https://host/nuxeo/` with
    /// `trailingSlash`; for an application at the root, `https://host` or `https://host/`.
    ///
    /// - Throws: `ProviderError.Code.invalidArgument` when the URL cannot be made.
    package func url(trailingSlash: Bool) throws -> URL {
        var components = origin
        let path = applicationPath.map { "/" + PercentEncoding.formEncode($0) }.joined()
        components.percentEncodedPath = trailingSlash ? path + "/" : path
        guard let url = components.url else { throw ProviderError(.invalidArgument, "not a URL: \(given)") }
        return url
    }
}
