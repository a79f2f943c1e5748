import Foundation
import NIOCore
import ProviderKit
import Testing

@testable import ProviderAPI

/// Small bodies are read at once and sent as one buffer (`WholeBodySource`).
@Suite("Whole small bodies")
struct WholeBodyTests {
    private func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("whole-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a file's whole body is its bytes, read as many times as asked")
    func fileBytes() async throws {
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let url = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try FileSource(url: url)
        #expect(Array(buffer: try await source.wholeBody()) == bytes)
        #expect(Array(buffer: try await source.wholeBody()) == bytes, "replayable")
        #expect(Array(buffer: try DataSource(bytes: bytes).wholeBody()) == bytes)
    }

    @Test("a file that shrank after its source was made is a conflict, not a short body")
    func shrank() async throws {
        let url = try temporaryFile([UInt8](repeating: 9, count: 4096))
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try FileSource(url: url)
        try Data([1, 2, 3]).write(to: url)
        await #expect { try await source.wholeBody() } throws: { ($0 as? ProviderError)?.code == .conflict }
    }

    @Test("a file that grew sends the length its source declared")
    func grew() async throws {
        let url = try temporaryFile([UInt8](repeating: 1, count: 100))
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try FileSource(url: url)
        try Data([UInt8](repeating: 2, count: 300)).write(to: url)
        #expect(try await source.wholeBody().readableBytes == 100)
    }
}
