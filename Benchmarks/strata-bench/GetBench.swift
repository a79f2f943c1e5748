import ArgumentParser
import Crypto
import Foundation
import NIOCore
import ProviderAPI
import ProviderKit

/// Downloads a file once, discarding the bytes (or into a file), and checks its length and digest.
struct GetBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Download a file.")

    @OptionGroup var target: BenchTarget
    @Argument(help: "The remote file.") var url: String
    @Option(help: "Write to this local file (default: discard the bytes).") var to: String?
    @Option(help: "The SHA-256 the content must have (hashes while discarding).") var sha256: String?
    @Option(help: "The size the content must have.") var size: Int64?

    func run() async throws {
        let (provider, path) = try await target.open(url)
        let result: DownloadResult
        if let to {
            result = try await provider.download(path, to: FileSink(url: URL(fileURLWithPath: to)), options: DownloadOptions())
            if let sha256, try Self.digest(ofFile: to) != sha256.lowercased() {
                throw CheckFailed("the SHA-256 of \(to) is not \(sha256)")
            }
        } else {
            let sink = DiscardSink(hashing: sha256 != nil)
            result = try await provider.download(path, to: sink, options: DownloadOptions())
            if let sha256, await sink.digest() != sha256.lowercased() {
                throw CheckFailed("the SHA-256 of the body is not \(sha256)")
            }
        }
        if let size, result.bytesReceived != size {
            throw CheckFailed("received \(result.bytesReceived) bytes, expected \(size)")
        }
        print(String(result.bytesReceived))
    }

    static func digest(ofFile path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CheckFailed("cannot read \(path)") }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// Counts (and optionally hashes) a download without keeping it.
actor DiscardSink: DownloadSink {
    private var hasher: SHA256?
    private(set) var count: Int64 = 0

    init(hashing: Bool) { hasher = hashing ? SHA256() : nil }

    func digest() -> String? { hasher?.finalize().map { String(format: "%02x", $0) }.joined() }

    func resumePoint() async throws -> ResumePoint? { nil }
    func begin(offset: Int64, expectedLength: Int64?, validator: String?) async throws { count = 0 }
    func write(_ buffer: ByteBuffer) async throws {
        count += Int64(buffer.readableBytes)
        if hasher != nil { buffer.withUnsafeReadableBytes { hasher?.update(bufferPointer: $0) } }
    }
    func finish() async throws {}
    func fail() async {}
}
