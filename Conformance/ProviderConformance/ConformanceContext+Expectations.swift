import Foundation
import ProviderAPI
import ProviderKit

extension ConformanceContext {
    /// Fails the case with `message` unless `condition` holds.
    package func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        guard condition else { throw ConformanceFailure(message()) }
    }

    /// Runs `operation`, which must throw a `ProviderError` with one of `codes`; returns that error.
    ///
    /// - Parameters:
    ///   - codes: the codes the error may have.
    ///   - what: the call, as the report should name it (`"item(at: /missing)"`).
    ///   - operation: the call.
    @discardableResult
    package func expectError<Value: Sendable>(
        _ codes: Set<ProviderError.Code>, _ what: String, _ operation: () async throws -> Value
    ) async throws -> ProviderError {
        let wanted = codes.map { ".\($0)" }.sorted().joined(separator: " or ")
        do {
            _ = try await operation()
        } catch let error as ProviderError {
            guard codes.contains(error.code) else {
                throw ConformanceFailure("\(what) should throw \(wanted), threw \(error)")
            }
            return error
        } catch {
            throw ConformanceFailure("\(what) should throw ProviderError \(wanted), threw \(type(of: error)): \(error)")
        }
        throw ConformanceFailure("\(what) should throw \(wanted), but succeeded")
    }

    /// Runs `operation`, which must throw a `ProviderError` with `code`; returns that error.
    @discardableResult
    package func expectError<Value: Sendable>(
        _ code: ProviderError.Code, _ what: String, _ operation: () async throws -> Value
    ) async throws -> ProviderError {
        try await expectError([code], what, operation)
    }

    /// Fails the case unless there is no item at `path`.
    package func expectMissing(_ path: ItemPath, _ why: String = "") async throws {
        try await expectError(.notFound, "item(at: \(path))\(why.isEmpty ? "" : " \(why)")") {
            try await provider.item(at: path)
        }
    }

    /// Fails the case unless the file at `path` holds exactly `bytes`.
    package func expectContent(_ path: ItemPath, _ bytes: [UInt8], _ why: String = "") async throws {
        let got = try await content(of: path)
        guard got == bytes else {
            throw ConformanceFailure(
                "\(path)\(why.isEmpty ? "" : " \(why)") holds \(ByteSummary.describe(got)), expected \(ByteSummary.describe(bytes))")
        }
    }

    /// Repeats `attempt` until it returns `true` or ``ConformanceOptions/settleTimeout`` passes,
    /// for results that servers make visible eventually (search indexes, change feeds).
    package func eventually(_ attempt: () async throws -> Bool) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + options.settleTimeout
        while true {
            if try await attempt() { return true }
            if clock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(500))
        }
    }
}

/// Short descriptions of byte strings for failure messages.
package enum ByteSummary {
    package static func describe(_ bytes: [UInt8]) -> String {
        if bytes.count <= 40, let text = String(bytes: bytes, encoding: .utf8) {
            return "\(bytes.count) bytes \"\(text)\""
        }
        return "\(bytes.count) bytes (sha256 \(Digester.hex(.sha256, of: bytes) ?? "?"))"
    }
}
