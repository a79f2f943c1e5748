import Foundation
import NIOConcurrencyHelpers
import ProviderAPI
import ProviderKit

/// The verified behaviour of one server for a provider, with verification run at most once
/// at a time, and remembered for every provider of the same server and user: in this process,
/// and in the configuration's ``ServerFactStore`` (the shared cache) for the next processes.
///
/// A remembered verdict is trusted for ``trustedFor`` (a day) from when it was verified, and only
/// while the server names itself as it did then (the same `Server` header); after that, or when
/// the server changed, the next write verifies again. So a server upgraded or replaced behind
/// the same URL is believed for at most a day, and not at all when it says it changed.
final class WebDAVVerificationState: Sendable {
    /// What is kept, in memory and (as JSON) in the store.
    struct Record: Codable, Sendable {
        /// ``recordVersion`` when it was kept; `nil` in records kept before versions (no name rules).
        var version: Int?
        /// The `Server` header of the server when it was verified.
        var server: String?
        var verified: WebDAVVerifiedBehaviour
        var at: Date
    }

    /// Who the verdict is about.
    struct Subject: Sendable {
        /// The origin, without credentials.
        var server: String
        var user: String
        /// The `Server` header the probe saw.
        var serverHeader: String?
        var key: String { "\(user)@\(server)" }
    }

    private struct State {
        var verdict: WebDAVVerifiedBehaviour
        var attempts = 0
        /// Whether no run is left to make: the verdict is complete or the attempts are spent.
        var isSettled: Bool { verdict.isComplete || attempts >= WebDAVVerificationState.maxAttempts }
    }

    /// How long a verdict learnt earlier (in this process or another) is trusted.
    static let trustedFor: TimeInterval = 24 * 60 * 60
    /// The version of what the verifier finds: a record of another version is verified again
    /// (version 2 added the name rules, 3 the folder-overwrite check, 4 the case of names: a record
    /// of version 3 or older says nothing of case, so it is verified again rather than read as
    /// case-sensitive; 5 names proved on every route, trailing spaces and dots, long names,
    /// normalisation-insensitive lookups, `COPY` merges and ranges).
    static let recordVersion = 6
    /// The ``ServerFact/kind`` of a kept verdict.
    static let factKind = "webdav.verified"
    /// Verdicts learnt in this process, by ``Subject/key``.
    private static let memory = NIOLockedValueBox<[String: Record]>([:])
    /// How many times a provider tries when the probes could not run (no write access there).
    static let maxAttempts = 2

    private let state: NIOLockedValueBox<State>
    /// The verification under way, which callers arriving meanwhile wait for.
    private let verifying = SingleFlight<Void>()
    /// Who the verdict is about; its `Server` header changes when a profile kept by an earlier
    /// process turns out stale (``serverChanged(to:)``).
    private let subjectBox: NIOLockedValueBox<Subject>
    private var subject: Subject { subjectBox.withLockedValue { $0 } }
    private let store: (any ServerFactStore)?

    init(subject: Subject, declared: WebDAVVerifiedBehaviour, store: (any ServerFactStore)?) {
        self.subjectBox = NIOLockedValueBox(subject)
        self.store = store
        let remembered = Self.memory.withLockedValue { $0[subject.key] }.flatMap { Self.usable($0, for: subject) }
        state = NIOLockedValueBox(State(verdict: remembered ?? declared))
    }

    /// The verdicts known now.
    var verdict: WebDAVVerifiedBehaviour { state.withLockedValue { $0.verdict } }

    /// Whether no verification is left to run: the verdict is complete or the attempts are spent.
    var isSettled: Bool { state.withLockedValue { $0.isSettled } }

    /// Takes a verdict kept in the store by an earlier process, when it is still trusted.
    func loadRemembered() async {
        if verdict.isComplete { return }
        guard let record = await storedRecord() else { return }
        Self.memory.withLockedValue { $0[subject.key] = record }
        state.withLockedValue { state in
            if !state.verdict.isComplete { state.verdict = record.verified }
        }
    }

    /// Runs `verify` unless the verdict is complete or the attempts are spent; callers that
    /// arrive while it runs wait for the same run.
    func ensure(_ verify: @escaping @Sendable () async -> WebDAVVerifiedBehaviour?) async {
        // Settled stays settled (a complete verdict is never replaced, attempts only grow): once it
        // is, and the run that settled it (which set the slot before it counted its attempt and
        // frees it only after it has set the verdict) is over, there is nothing to wait for.
        // Otherwise the run checks again under the lock.
        if state.withLockedValue(\.isSettled), !verifying.isRunning { return }
        try? await verifying.run { [self] in
            let go = state.withLockedValue { state -> Bool in
                if state.isSettled { return false }
                state.attempts += 1
                return true
            }
            guard go else { return }
            let result = await verifyOnce(verify)
            if let result { state.withLockedValue { $0.verdict = result } }
        }
    }

    /// One attempt: the verdict another process kept since this provider was made, else `verify`'s,
    /// remembered when it is complete.
    private func verifyOnce(_ verify: @Sendable () async -> WebDAVVerifiedBehaviour?) async -> WebDAVVerifiedBehaviour? {
        if let stored = await storedRecord() {
            Self.memory.withLockedValue { $0[subject.key] = stored }
            return stored.verified
        }
        let result = await verify()
        if let result, result.isComplete { await keep(result) }
        return result
    }

    /// Remembers a complete verdict in this process and in the store.
    private func keep(_ verified: WebDAVVerifiedBehaviour) async {
        let record = Record(version: Self.recordVersion, server: subject.serverHeader, verified: verified, at: Date())
        Self.memory.withLockedValue { $0[subject.key] = record }
        guard let store, let value = try? JSONEncoder().encode(record) else { return }
        try? await store.remember(
            ServerFact(kind: Self.factKind, server: subject.server, user: subject.user, value: value, learntAt: record.at))
    }

    /// The store's record for this subject, when there is one still trusted.
    private func storedRecord() async -> Record? {
        guard let store,
            let fact = try? await store.fact(Self.factKind, server: subject.server, user: subject.user),
            var record = try? JSONDecoder().decode(Record.self, from: fact.value)
        else { return nil }
        record.at = min(record.at, fact.learntAt)
        return Self.usable(record, for: subject) == nil ? nil : record
    }

    /// The record's verdict when it is complete, younger than ``trustedFor`` and about the server
    /// as it names itself now.
    private static func usable(_ record: Record, for subject: Subject) -> WebDAVVerifiedBehaviour? {
        let age = Date().timeIntervalSince(record.at)
        guard record.version == recordVersion, record.verified.isComplete, age >= 0, age < trustedFor, record.server == subject.serverHeader else { return nil }
        return record.verified
    }

    /// The server now names itself `header`, not as the profile this state was made from said
    /// (a profile kept by an earlier process): the verdict is dropped unless one kept for the
    /// server as it names itself now is trusted, and the next write verifies again.
    func serverChanged(to header: String?, declared: WebDAVVerifiedBehaviour) async {
        let subject = subjectBox.withLockedValue { subject in
            subject.serverHeader = header
            return subject
        }
        let remembered = Self.memory.withLockedValue { $0[subject.key] }.flatMap { Self.usable($0, for: subject) }
        state.withLockedValue { $0 = State(verdict: remembered ?? declared) }
        await loadRemembered()
    }

    /// Forgets what this process learnt (for tests).
    static func forgetAll() { memory.withLockedValue { $0.removeAll() } }
}
