import Foundation

/// One cookie of a server session: the origin (`host:port`) it is sent to, its name and value.
///
/// A ``SignInSession`` carries these to another process; an HTTP adapter's cookie jar
/// (`CookieJar` in `HTTPProviderKit`) lists and restores them.
public struct SessionCookie: Sendable, Codable, Hashable {
    /// `host:port`, as cookie jars key origins.
    public var origin: String
    /// The cookie's name.
    public var name: String
    /// The cookie's value (a secret when it names a session).
    public var value: String

    /// Creates an entry.
    package init(origin: String, name: String, value: String) {
        self.origin = origin
        self.name = name
        self.value = value
    }
}
