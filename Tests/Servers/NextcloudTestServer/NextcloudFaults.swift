import Foundation
import NIOConcurrencyHelpers

/// Fault hooks of a ``NextcloudTestServer``. Thread-safe; every knob can be set while requests run.
public final class NextcloudFaults: Sendable {
    struct FailRule: Sendable {
        var status: Int
        var remaining: Int
        var matching: @Sendable (_ method: String, _ path: String) -> Bool
    }

    struct State: Sendable {
        var failRules: [FailRule] = []
        var dropAfterChunks: Int?
        var corruptNextChunk = false
        var maintenance = false
        var locked: Set<String> = []
    }

    private let state = NIOLockedValueBox(State())

    init() {}

    /// After this many more chunk uploads (`PUT /remote.php/dav/uploads/…`) are stored, the next
    /// chunk upload is read but not stored and its connection is closed without an answer; the
    /// knob then clears itself. `nil` disarms it.
    public var dropConnectionAfterChunks: Int? {
        get { state.withLockedValue { $0.dropAfterChunks } }
        set { state.withLockedValue { $0.dropAfterChunks = newValue.map { max($0, 0) } } }
    }

    /// The next chunk stored has one byte changed, so an `OC-Checksum` sent on the final `MOVE`
    /// no longer matches (as a chunk corrupted on the server's disk would).
    public func corruptNextChunkChecksum() {
        state.withLockedValue { $0.corruptNextChunk = true }
    }

    /// The next `count` requests (whose method and percent-encoded path satisfy `matching`) are
    /// answered with `status` and a Sabre error body (`ServiceUnavailable` for 503, …).
    public func failNextRequests(
        status: Int, count: Int = 1,
        matching: @escaping @Sendable (_ method: String, _ path: String) -> Bool = { _, _ in true }
    ) {
        state.withLockedValue {
            $0.failRules.append(FailRule(status: status, remaining: max(count, 1), matching: matching))
        }
    }

    /// Maintenance mode: `status.php` says `"maintenance":true` and WebDAV answers 503
    /// "System in maintenance mode." (as recorded from ownCloud 10).
    public var maintenance: Bool {
        get { state.withLockedValue { $0.maintenance } }
        set { state.withLockedValue { $0.maintenance = newValue } }
    }

    /// Locks a file of `user` (path relative to the user's root, such as `"new folder/newfile.pdf"`):
    /// writes, moves and deletes of it answer 423 `FileLocked` until ``unlock(user:path:)``.
    public func lock(user: String, path: String) {
        state.withLockedValue { _ = $0.locked.insert(Self.key(user, path)) }
    }

    /// Removes a lock set by ``lock(user:path:)``.
    public func unlock(user: String, path: String) {
        state.withLockedValue { _ = $0.locked.remove(Self.key(user, path)) }
    }

    /// Clears every pending fault, lock and maintenance mode.
    public func reset() {
        state.withLockedValue { $0 = State() }
    }

    // MARK: - Consumed by the server

    private static func key(_ user: String, _ path: String) -> String {
        user + "\u{0}" + path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    func isLocked(user: String, path: String) -> Bool {
        state.withLockedValue { $0.locked.contains(Self.key(user, path)) }
    }

    func takeFailure(method: String, path: String) -> Int? {
        state.withLockedValue { state in
            guard let index = state.failRules.firstIndex(where: { $0.matching(method, path) }) else { return nil }
            let status = state.failRules[index].status
            state.failRules[index].remaining -= 1
            if state.failRules[index].remaining <= 0 { state.failRules.remove(at: index) }
            return status
        }
    }

    /// `true` when this chunk upload must be dropped; counts stored chunks down otherwise.
    func takeChunkDrop() -> Bool {
        state.withLockedValue { state in
            guard let left = state.dropAfterChunks else { return false }
            if left == 0 {
                state.dropAfterChunks = nil
                return true
            }
            state.dropAfterChunks = left - 1
            return false
        }
    }

    func takeChunkCorruption() -> Bool {
        state.withLockedValue { state in
            defer { state.corruptNextChunk = false }
            return state.corruptNextChunk
        }
    }
}
