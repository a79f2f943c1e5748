import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit
import HTTPProviderKit

/// The profile ``WebDAVProvider/connect(_:)`` probed (`OPTIONS` and a `PROPFIND` of the root),
/// kept in the configuration's `ServerFactStore` so that the next process reads without probing:
/// a `get` of one file is then one `GET`.
///
/// A kept profile is trusted as a kept verdict is (``WebDAVVerificationState/trustedFor``, a day),
/// for the same root and user. Reads need nothing else from it (a download is checked against its
/// own answer's headers); before the first write the server's name is confirmed with one `OPTIONS`
/// (``WebDAVProvider/confirmKeptProfile()``), so that a verdict about a server that now names itself
/// otherwise is not believed, as when the profile is probed.
enum WebDAVKeptProfile {
    /// The ``ServerFact/kind`` of a kept profile.
    static let factKind = "webdav.profile"
    /// The version of ``Record``: a record of another version is probed again.
    static let recordVersion = 1

    struct Record: Codable, Sendable {
        var version: Int
        var profile: WebDAVServerProfile
        var at: Date
    }

    /// Whether a provider made from a kept profile has confirmed the server's name since.
    final class Confirmation: Sendable {
        /// Where the profile is kept again when the server turns out renamed.
        let store: (any ServerFactStore)?
        let user: String?
        init(store: (any ServerFactStore)?, user: String?) {
            self.store = store
            self.user = user
        }
        let confirmed = NIOLockedValueBox(false)
        let running = SingleFlight<Void>()
    }

    /// The root as a fact names it: without credentials, query or fragment.
    static func server(_ root: URL) -> String {
        var components = URLComponents(url: root, resolvingAgainstBaseURL: false)
        components?.user = nil
        components?.password = nil
        components?.query = nil
        components?.fragment = nil
        return components?.string ?? Redactor.redact(url: root)
    }

    /// The profile kept for `root` and `user`, when one is still trusted.
    static func load(from store: (any ServerFactStore)?, root: URL, user: String?) async -> WebDAVServerProfile? {
        guard let store,
            let fact = try? await store.fact(factKind, server: server(root), user: user ?? ""),
            let record = try? JSONDecoder().decode(Record.self, from: fact.value)
        else { return nil }
        let age = Date().timeIntervalSince(min(record.at, fact.learntAt))
        guard record.version == recordVersion, age >= 0, age < WebDAVVerificationState.trustedFor else { return nil }
        var profile = record.profile
        profile.verified = .unverified
        return profile
    }

    /// Keeps `profile` (as probed, before any verdict) for the next process; a store that fails is ignored.
    static func keep(_ profile: WebDAVServerProfile, in store: (any ServerFactStore)?, root: URL, user: String?) async {
        guard let store else { return }
        var profile = profile
        profile.verified = .unverified
        let record = Record(version: recordVersion, profile: profile, at: Date())
        guard let value = try? JSONEncoder().encode(record) else { return }
        try? await store.remember(ServerFact(kind: factKind, server: server(root), user: user ?? "", value: value, learntAt: record.at))
    }
}

extension WebDAVProvider {
    /// For a provider made from a kept profile: asks the server's name once (`OPTIONS`) before the
    /// first write. When it names itself otherwise than the kept profile said (another `Server` or
    /// `DAV` header), the profile takes the new name with the conservative guesses of an unknown
    /// server and the verdict is dropped, so the write verifies again as after a fresh probe. A
    /// failed `OPTIONS` leaves the profile unconfirmed (the next write asks again); the write
    /// itself then meets the same failure.
    func confirmKeptProfile() async {
        guard let keptProfile, !keptProfile.confirmed.withLockedValue({ $0 }) else { return }
        let provider = self
        try? await keptProfile.running.run {
            if keptProfile.confirmed.withLockedValue({ $0 }) { return }
            let request = TransportRequest(method: .OPTIONS, url: provider.mapper.root)
            guard let answer = try? await provider.executor.execute(request) else { return }
            await answer.body.discard()
            guard (200..<300).contains(answer.status) else { return }
            let server = answer.headers.first(name: "server")
            let classes = answer.headers.first(name: "dav")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let kept = provider.probed
            if server != kept.server || classes != kept.davClasses {
                provider.logger.debug("the server now names itself otherwise than the kept profile says: verifying again")
                provider.probedBox.withLockedValue { profile in
                    profile.server = server
                    profile.davClasses = classes ?? profile.davClasses
                    profile.honoursPreconditions = false
                    profile.keepsPartialUploads = true
                    profile.servesRanges = false
                    profile.honoursDepthInfinity = nil
                }
                await provider.verification?.serverChanged(to: server, declared: .unverified)
                await WebDAVKeptProfile.keep(provider.probed, in: keptProfile.store, root: provider.mapper.root, user: keptProfile.user)
            }
            keptProfile.confirmed.withLockedValue { $0 = true }
        }
    }
}
