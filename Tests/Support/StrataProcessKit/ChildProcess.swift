import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, for the tests that run the `strata` binary or a
/// helper executable.
///
/// Not `Foundation.Process`: on Linux (Swift 6.3) its `run()` walks `/proc/self/fd` copying each
/// entry's 256-byte `d_name` past the end of the record (swift-corelibs-foundation #5472), which
/// crashed roughly one test run in five with SIGSEGV. `posix_spawn` does the fork and exec in the
/// C library, and this type keeps only what the tests need: arguments, environment, working
/// folder, standard input/output/error to `/dev/null`, a pipe or a file, signals, and the exit.
///
/// The child is reaped once; ``signal(_:)`` is sent only while it has not been, so a signal never
/// reaches another process that reused the identifier.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe this process reads (output) or writes (input).
        case pipe
        /// A file, created or emptied (output only).
        case file(URL)
        /// The same place as standard output (standard error only).
        case output
        /// This process's own stream.
        case inherit
    }

    /// How a child ended.
    public struct Termination: Sendable, Equatable, CustomStringConvertible {
        /// The exit status, or the signal number when ``signaled``.
        public var status: Int32
        /// Whether a signal ended the child.
        public var signaled: Bool

        public var description: String { signaled ? "signal \(status)" : "exit \(status)" }
    }

    /// A failure to start the child.
    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    private struct State {
        var termination: Termination?
    }

    /// Held from creating a child's pipes to its spawn.
    private static let spawnLock = NIOLock()

    /// The child's process identifier.
    public let pid: pid_t
    /// The read end of the child's standard output, when it is ``Stream/pipe``.
    public let outputDescriptor: Int32?
    /// The write end of the child's standard input, when it is ``Stream/pipe``.
    public let inputDescriptor: Int32?
    private let state = NIOLockedValueBox(State())

    /// Starts `executable` with `arguments` (without the program name, as `Process` takes them).
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment (`nil`: this process's).
    ///   - directory: the child's working folder (`nil`: this process's).
    ///   - input: `.null`, `.pipe` or `.inherit`.
    ///   - output: `.null`, `.pipe`, `.file` or `.inherit`.
    ///   - error: `.null`, `.file`, `.output` or `.inherit`.
    public init(
        executable: URL, arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Stream = .null, output: Stream = .pipe, error: Stream = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // Every signal at its default and none blocked in the child, whatever this process ignores.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        #if canImport(Darwin)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        #endif

        // Descriptors this process keeps (closed here when the spawn fails) and the child's ends
        // (closed here once the child has them).
        var ours: [Int32] = []
        var theirs: [Int32] = []
        defer { for descriptor in theirs { close(descriptor) } }
        func pipePair() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            // Close-on-exec at once; spawns are serialized (``spawnLock``), so no other child of
            // ours can inherit an end in between.
            let result = pipe(&ends)
            if result == 0 {
                _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            }
            guard result == 0 else { throw SpawnError(description: "pipe failed: errno \(errno)") }
            return (ends[0], ends[1])
        }

        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var inputEnd: Int32?
        var outputEnd: Int32?
        do {
            switch input {
            case .pipe:
                let ends = try pipePair()
                ours.append(ends.write)
                theirs.append(ends.read)
                inputEnd = ends.write
                posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
            case .inherit:
                break
            case .null, .file, .output:
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            switch output {
            case .pipe:
                let ends = try pipePair()
                ours.append(ends.read)
                theirs.append(ends.write)
                outputEnd = ends.read
                posix_spawn_file_actions_adddup2(&actions, ends.write, 1)
            case .file(let url):
                posix_spawn_file_actions_addopen(&actions, 1, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .inherit:
                break
            case .null, .output:
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            switch error {
            case .output:
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            case .file(let url):
                posix_spawn_file_actions_addopen(&actions, 2, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .inherit:
                break
            case .null, .pipe:
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
            #if canImport(Glibc)
                // Nothing else of this process's reaches the child (a descriptor a library opened
                // without O_CLOEXEC would otherwise stay open in every child).
                if let closeFrom = GNUSpawnActions.closeFrom { _ = closeFrom(&actions, 3) }
            #endif
            if let directory {
                #if canImport(Glibc)
                    guard let changeDirectory = GNUSpawnActions.changeDirectory else {
                        throw SpawnError(description: "this C library has no posix_spawn_file_actions_addchdir_np")
                    }
                    _ = changeDirectory(&actions, directory.path)
                #else
                    posix_spawn_file_actions_addchdir_np(&actions, directory.path)
                #endif
            }

            let argv = [executable.path] + arguments
            let environ = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
            var child: pid_t = 0
            let result = try Self.withCStrings(argv) { argvPointer in
                try Self.withCStrings(environ) { environPointer in
                    posix_spawn(&child, executable.path, &actions, &attributes, argvPointer, environPointer)
                }
            }
            guard result == 0 else {
                throw SpawnError(description: "posix_spawn \(executable.path) failed: \(String(cString: strerror(result)))")
            }
            pid = child
        } catch {
            for descriptor in ours { close(descriptor) }
            throw error
        }
        inputDescriptor = inputEnd
        outputDescriptor = outputEnd
    }

    deinit {
        if let outputDescriptor { close(outputDescriptor) }
        if let inputDescriptor { close(inputDescriptor) }
    }

    /// Calls `body` with a NULL-terminated array of C strings.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> Result
    ) throws -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return try pointers.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { throw SpawnError(description: "no argument buffer") }
            return try body(base)
        }
    }

    /// The next bytes of standard output: empty at its end (or on an error, or without a pipe).
    /// A read that a signal interrupted is retried.
    public func readPiece(maximum: Int = 64 << 10) -> Data {
        guard let outputDescriptor else { return Data() }
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// All of standard output until its end.
    public func readToEnd() -> Data {
        var data = Data()
        while true {
            let piece = readPiece()
            if piece.isEmpty { return data }
            data.append(piece)
        }
    }

    /// Writes `data` to standard input (when it is a pipe); returns whether all of it was written.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        guard let inputDescriptor else { return false }
        var offset = 0
        return data.withUnsafeBytes { bytes -> Bool in
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return false }
                let count = systemWrite(inputDescriptor, base + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }

    /// Sends `signal` to the child unless it has already been reaped (its identifier may belong to
    /// another process by then). Returns whether it was sent.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        state.withLockedValue { state in
            guard state.termination == nil else { return false }
            return kill(pid, signal) == 0
        }
    }

    /// Whether the child has not ended yet (it is reaped when it has).
    public var isRunning: Bool {
        state.withLockedValue { state in
            if state.termination != nil { return false }
            return Self.reap(pid, into: &state, blocking: false) == nil
        }
    }

    /// Blocks until the child ends and returns how. The child stays unreaped while this waits, so
    /// ``signal(_:)`` can still reach it.
    public func waitUntilExit() -> Termination {
        if let done = state.withLockedValue({ $0.termination }) { return done }
        #if canImport(Glibc)
            // Wait without reaping (WNOWAIT), then reap under the lock.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
                if errno != EINTR { break }
            }
        #endif
        return state.withLockedValue { state in
            if let done = state.termination { return done }
            return Self.reap(pid, into: &state, blocking: true) ?? Termination(status: -1, signaled: false)
        }
    }

    /// Waits for the child to end without blocking a thread of Swift's pool.
    public func terminated() async -> Termination {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.waitUntilExit()) }
        }
    }

    /// Reaps `pid` with `waitpid`; `nil` when it is still running (not blocking) or on an error.
    private static func reap(_ pid: pid_t, into state: inout State, blocking: Bool) -> Termination? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            return nil
        }
        // WIFSIGNALED/WTERMSIG/WEXITSTATUS are macros Swift does not import.
        let signalNumber = status & 0x7f
        let termination =
            signalNumber == 0
            ? Termination(status: (status >> 8) & 0xff, signaled: false)
            : Termination(status: signalNumber, signaled: true)
        state.termination = termination
        return termination
    }
}

#if canImport(Glibc)
    /// The glibc (2.29+, 2.34+) file actions that Swift's Glibc module leaves out (they need
    /// `_GNU_SOURCE`), found at run time.
    private enum GNUSpawnActions {
        typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

        static let changeDirectory: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")
        static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

        private static func symbol<Function>(_ name: String) -> Function? {
            guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
            return unsafeBitCast(address, to: Function.self)
        }
    }
#endif

/// `write(2)`, which the method ``ChildProcess/write(_:)`` hides inside the class.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
    #else
        Darwin.write(descriptor, buffer, count)
    #endif
}
