import Dispatch
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ProviderAPI
import Testing
@testable import ProviderKit
import HTTPProviderKit

/// 3 MiB and a bit of a pattern: several 1 MiB batches and a remainder.
private let big: [UInt8] = (0..<(3 << 20) + 12_345).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 13)) }

/// `bytes` in pieces whose sizes cycle through `sizes`.
private func cut(_ bytes: [UInt8], _ sizes: [Int]) -> [[UInt8]] {
    var result: [[UInt8]] = []
    var start = 0
    var turn = 0
    while start < bytes.count {
        let end = min(bytes.count, start + sizes[turn % sizes.count])
        result.append(Array(bytes[start..<end]))
        start = end
        turn += 1
    }
    return result
}

/// A counter shared with a hashing thread.
private final class ManagedCounter: Sendable {
    private let box = NIOLockedValueBox(0)
    var value: Int { box.withLockedValue { $0 } }
    /// Adds one; returns the new value.
    @discardableResult
    func increment() -> Int { box.withLockedValue { $0 += 1; return $0 } }
}

@Suite("OverlappedDigester")
struct OverlappedDigesterTests {
    @Test("gives the digest Digester gives, whatever the pieces and batch size", arguments: [
        (DigestAlgorithm.md5, 1 << 20), (.md5, 1), (.sha1, 100_000), (.sha256, 1 << 20), (.md5, 64 << 20),
    ])
    func sameDigest(_ algorithm: DigestAlgorithm, _ batch: Int) async throws {
        let made = try #require(Digester(algorithm))
        var digester = OverlappedDigester(made, batchBytes: batch)
        for piece in cut(big, [65_536, 1, 300_001, 0, 4096]) { await digester.update(ByteBuffer(bytes: piece)) }
        #expect(await digester.finalize() == Digester.hex(algorithm, of: big))
    }

    @Test("hashes on a thread of its own, never in a Swift task (so not on an executor's event loop)")
    func hashesOutsideTasks() async throws {
        let seen = NIOLockedValueBox<[Bool]>([])
        var digester = OverlappedDigester(try #require(Digester(.sha1)), batchBytes: 1 << 20)
        digester.willHash = { seen.withLockedValue { $0.append(withUnsafeCurrentTask { $0 != nil }) } }
        for piece in cut(big, [65_536, 4096]) { await digester.update(ByteBuffer(bytes: piece)) }
        #expect(await digester.finalize() == Digester.hex(.sha1, of: big))
        let inTask = seen.withLockedValue { $0 }
        #expect(inTask.count == 2)  // two full batches of about 1 MiB; the rest is hashed by finalize()
        #expect(!inTask.contains(true))
    }

    @Test("holds at most one batch hashing, the queued ones and one gathering: a caller that outruns the hashing waits at its next full batch", arguments: [0, 1, 3])
    func boundedWindow(_ queued: Int) async throws {
        let release = DispatchSemaphore(value: 0)
        let hashing = ManagedCounter()
        let returned = ManagedCounter()
        var digester = OverlappedDigester(try #require(Digester(.md5)), batchBytes: 4096, queuedBatches: queued)
        digester.willHash = {
            // The first batch's hashing waits until the test lets it go (the timeout only keeps a
            // broken digester from hanging the suite: under the whole suite's load on 2 cores,
            // feeding these few pieces once took more than 30 s, and the hash went on early).
            if hashing.increment() == 1 { _ = release.wait(timeout: .now() + 300) }
        }
        let bytes = Array(big.prefix((queued + 4) * 4096 + 100))
        let pieces = cut(bytes, [1024])
        let feeder = Task { [digester] in
            var digester = digester
            for piece in pieces {
                await digester.update(ByteBuffer(bytes: piece))
                returned.increment()
            }
            return await digester.finalize()
        }
        // Pieces 1-4 fill the first batch (now hashing, held); each next 4 pieces fill a batch that
        // waits for the worker, `queued` of them; then 3 pieces gather, and the piece that fills the
        // next batch must wait for the first.
        let expected = 4 + 4 * queued + 3
        let deadline = ContinuousClock.now + .seconds(240)
        while returned.value < expected, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(returned.value == expected)
        #expect(hashing.value == 1)
        release.signal()
        #expect(await feeder.value == Digester.hex(.md5, of: bytes))
        #expect(hashing.value == queued + 4)
    }

    @Test("the worker goes on with the waiting batches by itself: a caller that stops updating still gets every batch hashed before finalize")
    func workerDrains() async throws {
        let hashed = ManagedCounter()
        var digester = OverlappedDigester(try #require(Digester(.sha256)), batchBytes: 1 << 16, queuedBatches: 4)
        digester.willHash = { hashed.increment() }
        for piece in cut(big, [65_536]) { await digester.update(ByteBuffer(bytes: piece)) }
        // Every full batch is hashed without another call from the caller.
        let deadline = ContinuousClock.now + .seconds(240)
        while hashed.value < big.count / 65_536, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(hashed.value == big.count / 65_536)
        #expect(await digester.finalize() == Digester.hex(.sha256, of: big))
        // Finalizing again changes nothing.
        #expect(await digester.finalize() == Digester.hex(.sha256, of: big))
    }

    @Test("of nothing is the empty digest")
    func empty() async throws {
        var digester = OverlappedDigester(try #require(Digester(.md5)))
        #expect(await digester.finalize() == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test("a multi-megabyte download that matches its md5 lands whole; one changed byte past the first batches is integrity and leaves no file")
    func downloadChecksBeside() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let declared = Digester.hex(.md5, of: big) ?? ""
        var corrupted = big
        corrupted[big.count - 5] ^= 0x40
        let response = { (body: [UInt8]) in
            ScriptedStep.respond(
                status: 200, headers: [("Content-Length", "\(body.count)"), ("X-MD5", declared)], pieces: cut(body, [65_536, 7_777]))
        }
        let transport = ScriptedTransport([response(big), response(corrupted)])
        let downloader = HTTPDownloader(executor: RequestExecutor(transport: transport, retry: fastRetry, logger: quietLogger))
        let itemFor: @Sendable (TransportResponse) -> Item = { response in
            Item(path: "/big.bin", kind: .file, digests: [.md5: response.headers.first(name: "x-md5") ?? ""])
        }
        let errorFor: @Sendable (TransportResponse, ByteBuffer) -> ProviderError = { response, _ in
            ProviderError.http(status: response.status, request: nil, message: "")
        }
        let request = TransportRequest(method: .GET, url: url("http://127.0.0.1:8080/big.bin"))
        let good = try await downloader.download(
            request, to: FileSink(url: dir.file("good.bin")), options: DownloadOptions(), expected: nil, errorFor: errorFor, itemFor: itemFor)
        #expect(good.bytesReceived == Int64(big.count))
        #expect(try Array(Data(contentsOf: dir.file("good.bin"))) == big)

        let error = await #expect(throws: ProviderError.self) {
            try await downloader.download(
                request, to: FileSink(url: dir.file("bad.bin")), options: DownloadOptions(), expected: nil, errorFor: errorFor,
                itemFor: itemFor)
        }
        #expect(error?.code == .integrity)
        #expect(try dir.contents() == ["good.bin"])
    }
}
