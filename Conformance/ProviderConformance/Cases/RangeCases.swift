import Foundation
import ProviderAPI

/// Downloads of byte ranges.
enum RangeCases {
    static var all: [ConformanceCase] { [closed, from, suffix] }

    private static let size = 10_000

    static let closed = make("closed", "bytes(a...b) returns exactly those bytes") { bytes in
        [(.bytes(100...1099), Array(bytes[100...1099])), (.bytes(0...0), [bytes[0]]), (.bytes(9_990...9_999), Array(bytes[9_990...]))]
    }

    static let from = make("from", "from(offset) returns the bytes from the offset to the end") { bytes in
        [(.from(9_000), Array(bytes[9_000...])), (.from(0), bytes), (.from(9_999), [bytes[9_999]])]
    }

    static let suffix = make("suffix", "suffix(n) returns the last n bytes") { bytes in
        [(.suffix(50), Array(bytes.suffix(50))), (.suffix(1), [bytes[size - 1]])]
    }

    private static func make(
        _ name: String, _ summary: String, _ ranges: @escaping @Sendable ([UInt8]) -> [(ByteRange, [UInt8])]
    ) -> ConformanceCase {
        ConformanceCase("ranges.\(name)", requires: .rangeDownload, summary: summary) { context in
            let bytes = RandomBytes.make(size)
            let uploaded = try await context.upload(bytes, as: "ranged.bin")
            for (range, wanted) in ranges(bytes) {
                let sink = MemorySink()
                let result = try await context.provider.download(uploaded.path, to: sink, options: DownloadOptions(range: range))
                let got = await sink.bytes
                try context.expect(
                    got == wanted,
                    "range \(range.httpHeaderValue) gave \(got.count) bytes that \(got == wanted ? "match" : "differ"); expected \(wanted.count) bytes")
                try context.expect(result.bytesReceived == Int64(wanted.count), "range \(range.httpHeaderValue) reports \(result.bytesReceived) bytes received, not \(wanted.count)")
                let start = Int64(size - wanted.count)
                if case .bytes(let closed) = range {
                    try context.expect(result.offset == closed.lowerBound, "range \(range.httpHeaderValue) reports offset \(result.offset)")
                } else {
                    try context.expect(result.offset == start, "range \(range.httpHeaderValue) reports offset \(result.offset), not \(start)")
                }
            }
        }
    }
}
