import ArgumentParser
import Foundation
import ProviderAPI

/// What `strata login` signs in to: a saved remote, or a server URL saved as a remote once the
/// sign-in succeeded.
struct LoginTarget {
    /// The remote's name, under which the login is saved.
    var name: String
    /// The remote (its URL without user info).
    var remote: SavedRemote
    /// Whether the remote is new, to be saved with the login.
    var isNew: Bool
    /// Its adapter.
    var factory: any ProviderFactory
    /// Its URL in the adapter's wire scheme (`https://…` for `nextclouds://…`).
    var wireURL: URL
    /// The user name the URL holds (`nextclouds://ann@host`), if any.
    var urlUser: String?

    /// `target` read as a saved remote's name (`work` or `work:`) or a server URL (`nextclouds://host`),
    /// the latter saved under `name` (default: its host, with `-PORT` when it has a port).
    static func resolve(_ target: String, name: String?, registry: ProviderRegistry) throws -> LoginTarget {
        guard target.contains("://") else {
            let remoteName = target.hasSuffix(":") ? String(target.dropLast()) : target
            if name != nil {
                throw ValidationError("--name names the remote a server URL is saved as; \(TerminalText.escape(remoteName)) is not a URL")
            }
            guard let remote = registry.remote(named: remoteName) else {
                throw ValidationError(
                    "no remote named \(TerminalText.escape(remoteName)): give a server URL such as nextclouds://cloud.example.com (and --name NAME to choose the remote's name)")
            }
            let factory = try factory(for: remote, registry: registry)
            return LoginTarget(
                name: remoteName, remote: remote, isNew: false, factory: factory, wireURL: wire(remote.url, factory), urlUser: nil)
        }
        if TargetText.hasPassword(target) {
            throw ValidationError("the URL holds a password: strata login asks for it (or reads STRATA_PASSWORD or --password-file) instead")
        }
        guard let url = URL(string: target), url.scheme != nil, url.host != nil else {
            throw ValidationError("not a server URL: \(TerminalText.escape(TargetText.redacted(target)))")
        }
        let routed: (factory: any ProviderFactory, wireURL: URL)
        do { routed = try registry.route(url) } catch { throw Strata.printable(error) }
        var clean = URLComponents(url: url, resolvingAgainstBaseURL: false)
        clean?.user = nil
        clean?.password = nil
        let cleanURL = clean?.url ?? url
        let chosen = name ?? defaultName(url)
        guard let chosen, RemoteCommand.isValidName(chosen) else {
            if let name {
                throw ValidationError(
                    "'\(TerminalText.escape(name))' cannot name a remote: use 2 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit")
            }
            throw ValidationError("give --name NAME: the remote's name cannot be made from this URL's host")
        }
        var isNew = true
        if let existing = registry.remote(named: chosen) {
            guard existing.kind == routed.factory.kind, same(wire(existing.url, routed.factory), routed.wireURL) else {
                throw ValidationError(
                    "a remote named \(chosen) exists for another server (\(Redactor.redact(url: existing.url))): choose another --name, or `strata remote remove \(chosen)` first")
            }
            isNew = false
        }
        let remote = registry.remote(named: chosen) ?? SavedRemote(name: chosen, kind: routed.factory.kind, url: cleanURL)
        return LoginTarget(
            name: chosen, remote: remote, isNew: isNew, factory: routed.factory, wireURL: routed.wireURL.withoutUserInfo,
            urlUser: url.user.flatMap { $0.removingPercentEncoding })
    }

    /// The host of `url`, lowercased, with `-PORT` when it names a port.
    static func defaultName(_ url: URL) -> String? {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        return url.port.map { "\(host)-\($0)" } ?? host
    }

    private static func factory(for remote: SavedRemote, registry: ProviderRegistry) throws -> any ProviderFactory {
        guard let factory = registry.factory(kind: remote.kind) else {
            throw ValidationError("remote \(remote.name) needs the \(remote.kind) adapter, which this strata does not have")
        }
        return factory
    }

    /// Whether `a` and `b` name the same place: scheme and host in any case, the port, the path
    /// with or without its final `/`.
    static func same(_ a: URL, _ b: URL) -> Bool {
        func key(_ url: URL) -> [String] {
            let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            return [url.scheme?.lowercased() ?? "", url.host?.lowercased() ?? "", url.port.map(String.init) ?? "", trimmed]
        }
        return key(a) == key(b)
    }

    /// `url` in the adapter's wire scheme (as the registry reads a saved remote), without user info.
    private static func wire(_ url: URL, _ factory: any ProviderFactory) -> URL {
        guard let scheme = url.scheme?.lowercased(), let wire = factory.schemes[scheme],
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url.withoutUserInfo }
        components.scheme = wire
        return (components.url ?? url).withoutUserInfo
    }
}

extension URL {
    /// This URL without its user name and password.
    fileprivate var withoutUserInfo: URL {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
        components.user = nil
        components.password = nil
        return components.url ?? self
    }
}
