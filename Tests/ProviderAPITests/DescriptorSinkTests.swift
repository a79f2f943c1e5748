import Foundation
import NIOCore
import ProviderAPI
import ProviderKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("DescriptorSink")
struct DescriptorSinkTests {
    @Test("bytes go straight into the descriptor, which stays open unless the sink owns it")
    func writesThrough() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let sink = DescriptorSink(descriptor: fds[1], label: "a pipe")
        try await sink.begin(offset: 0, expectedLength: 11, validator: nil)
        try await sink.write(ByteBuffer(string: "hello "))
        try await sink.write(ByteBuffer(string: "world"))
        try await sink.finish()
        // A second download into the same descriptor appends.
        try await sink.begin(offset: 0, expectedLength: 1, validator: nil)
        try await sink.write(ByteBuffer(string: "!"))
        try await sink.finish()
        close(fds[1])
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(fds[0], &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(0, count)), as: UTF8.self) == "hello world!")
        #expect(try await sink.resumePoint() == nil)
    }

    @Test("a resumed download is refused: a stream cannot seek back")
    func noResume() async throws {
        let sink = DescriptorSink(descriptor: STDERR_FILENO)
        await #expect(throws: ProviderError.self) { try await sink.begin(offset: 10, expectedLength: nil, validator: nil) }
    }

    @Test("a file opened by path is written without a side file and closed at the end")
    func byPath() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-descriptor-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("old content".utf8)))
        defer { try? FileManager.default.removeItem(at: url) }
        let sink = try DescriptorSink(path: url.path, truncate: true)
        try await sink.begin(offset: 0, expectedLength: 3, validator: nil)
        try await sink.write(ByteBuffer(string: "new"))
        try await sink.finish()
        #expect(try Data(contentsOf: url) == Data("new".utf8))
        await #expect(throws: ProviderError.self) { try await sink.write(ByteBuffer(string: "late")) }
        #expect(throws: ProviderError.self) { _ = try DescriptorSink(path: url.path + "-missing/x") }
    }
}
