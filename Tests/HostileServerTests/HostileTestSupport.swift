import Foundation
import HostileTestServer
import NIOConcurrencyHelpers
import ProviderAPI
import HTTPProviderKit

/// The one place where the hostile tests name the configuration of issue 13: short deadlines
/// (1 s connect and no-data timeouts, 1000 B/s over 2 s, retries bounded to 5 s) and low page
/// limits (10 pages), so that every misbehaviour is met within seconds.
enum Hostile {
    /// The user the tests sign in as.
    static let user = "ann"
    /// A password that must never reach another origin, stdout or stderr.
    static let password = "s3cret-Hostile-pw"
    /// `Basic base64(user:password)`, which must not be echoed either.
    static var basicToken: String { Data("\(user):\(password)".utf8).base64EncodedString() }

    /// The longest any test waits for an SDK call before failing it as hung.
    static let hangLimit: Duration = .seconds(180)

    /// The no-data timeout of every hostile test but the stall tests: long enough that a
    /// well-behaved answer is never cut on a loaded machine (the whole suite runs in parallel,
    /// 870 tests on 2 cores, and the server's answers wait their turn with everything else).
    static let readTimeout: Duration = .seconds(30)

    /// The minimum-speed window of every hostile test but those about a trickling server (which
    /// pass 2 s): a starved loopback server on a loaded machine may send little for seconds, and
    /// a test about a malformed answer must not fail on speed.
    static let speedWindow: Duration = .seconds(30)

    /// A transport with the short deadlines of the hostile tests.
    static func shortDeadlineTransport(
        readTimeout: Duration = readTimeout, speedWindow: Duration = speedWindow
    ) -> AsyncHTTPClientTransport {
        var configuration = AsyncHTTPClientTransport.Configuration()
        // Every hostile server accepts at once on loopback and no case is about connecting: a
        // 1 s limit failed a Pydio case under the whole suite's load ("no connection within 1 s").
        configuration.connectTimeout = .seconds(30)
        configuration.readTimeout = readTimeout
        configuration.minimumSpeed = MinimumSpeed(bytesPerSecond: 1000, window: speedWindow)
        return AsyncHTTPClientTransport(configuration: configuration)
    }

    /// A retry policy that gives up quickly.
    static var shortRetry: RetryPolicy {
        var policy = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(50), maxDelay: .milliseconds(200))
        policy.totalDeadline = .seconds(5)
        return policy
    }

    /// The configuration of a provider rooted at `url` over `transport`.
    static func configuration(
        _ url: URL, transport: AsyncHTTPClientTransport, credentials: Credentials? = nil, options: [String: String] = [:]
    ) -> ProviderConfiguration {
        var configuration = ProviderConfiguration(
            url: url, credentials: credentials ?? .basic(username: user, password: password), transport: transport,
            options: options, retry: shortRetry)
        configuration.pageLimits = PageLimits(maxPages: 10, maxEntries: 10_000)
        return configuration
    }

    /// The CLI flags of the short deadlines.
    static let cliDeadlineArguments = [
        "--connect-timeout", "1", "--timeout", "1", "--retries", "1", "--low-speed-limit", "1000", "--low-speed-time", "2",
    ]

    /// Runs `body` with a short-deadline transport, and shuts the transport down after.
    static func withTransport<T: Sendable>(
        readTimeout: Duration = readTimeout, speedWindow: Duration = speedWindow,
        _ body: (AsyncHTTPClientTransport) async throws -> T
    ) async throws -> T {
        let transport = shortDeadlineTransport(readTimeout: readTimeout, speedWindow: speedWindow)
        do {
            let value = try await body(transport)
            try? await transport.shutdown()
            return value
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// Runs `body` with a started server playing `scenario`, and stops the server after.
    static func withServer<T: Sendable>(
        _ scenario: HostileScenario, _ body: (HostileServer) async throws -> T
    ) async throws -> T {
        let server = try await HostileServer.start(scenario: scenario)
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The outcome of an SDK call: its value or its ``ProviderError`` (any other error fails the test).
    enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case failure(ProviderError)
        case other(String)
        case hung(Duration)

        /// The error's code, when the call failed with a ``ProviderError``.
        var code: ProviderError.Code? {
            if case .failure(let error) = self { return error.code }
            return nil
        }

        /// The error, when the call failed with a ``ProviderError``.
        var error: ProviderError? {
            if case .failure(let error) = self { return error }
            return nil
        }
    }

    /// Runs `operation`, and returns its outcome; past `limit` the operation is cancelled and left
    /// behind (it may ignore cancellation), and the outcome is ``Outcome/hung(_:)``.
    static func outcome<T: Sendable>(
        within limit: Duration = hangLimit, _ operation: @escaping @Sendable () async throws -> T
    ) async -> Outcome<T> {
        let slot = NIOLockedValueBox<CheckedContinuation<Outcome<T>, Never>?>(nil)
        @Sendable func resume(_ outcome: Outcome<T>) {
            slot.withLockedValue { continuation in
                continuation?.resume(returning: outcome)
                continuation = nil
            }
        }
        return await withCheckedContinuation { continuation in
            slot.withLockedValue { $0 = continuation }
            let work = Task {
                do {
                    resume(.value(try await operation()))
                } catch let error as ProviderError {
                    resume(.failure(error))
                } catch {
                    resume(.other(String(describing: error)))
                }
            }
            Task {
                try? await Task.sleep(for: limit)
                work.cancel()
                resume(.hung(limit))
            }
        }
    }

    /// A fresh empty folder under the temporary directory.
    static func temporaryFolder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension Hostile.Outcome: CustomStringConvertible {
    var description: String {
        switch self {
        case .value(let value): return "succeeded with \(value)"
        case .failure(let error): return "failed with \(error.code): \(error)"
        case .other(let text): return "failed with a non-provider error: \(text)"
        case .hung(let limit): return "did not end within \(limit)"
        }
    }
}
