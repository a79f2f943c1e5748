import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import ProviderKit

/// A download sink that keeps only the SHA-256 and the length of what it receives: the replay
/// reads a file back after a crash to learn whether an upload reached the server.
final class DigestSink: DownloadSink, Sendable {
    private let state = NIOLockedValueBox<(digester: Digester?, size: Int64, result: String?)>((Digester(.sha256), 0, nil))

    /// The hex SHA-256 once finished.
    var sha256: String? { state.withLockedValue { $0.result } }
    /// The bytes received.
    var size: Int64 { state.withLockedValue { $0.size } }

    func resumePoint() async throws -> ResumePoint? { nil }

    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws {
        guard offset == 0 else { throw ProviderError(.invalidArgument, "a digest sink cannot resume at \(offset)") }
        state.withLockedValue { $0 = (Digester(.sha256), 0, nil) }
    }

    func write(_ buffer: ByteBuffer) async throws {
        state.withLockedValue { state in
            state.digester?.update(buffer)
            state.size += Int64(buffer.readableBytes)
        }
    }

    func finish() async throws {
        state.withLockedValue { state in state.result = state.digester?.finalize() }
    }

    func fail() async {}
}
