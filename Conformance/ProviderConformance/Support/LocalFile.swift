import Foundation
import NIOCore
import ProviderAPI
import ProviderKit

/// A file in a case's temporary folder, with its size and SHA-256.
package struct LocalFile: Sendable, Hashable {
    /// Where it is.
    package var url: URL
    /// Its size in bytes.
    package var size: Int64
    /// Its SHA-256, lowercase hex.
    package var sha256: String

    /// Describes a file.
    package init(url: URL, size: Int64, sha256: String) {
        self.url = url
        self.size = size
        self.sha256 = sha256
    }

    private static let blockSize = 1 << 20

    /// Writes `size` random bytes to `url` one block at a time and returns their SHA-256.
    ///
    /// The first 16 MiB are random; later blocks repeat them, each stamped with its index,
    /// so that every block differs and memory stays flat whatever the size.
    static func writeRandom(to url: URL, size: Int64) throws -> String {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ConformanceFailure("could not create the local file \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var digester = Digester(.sha256)
        var pool: [[UInt8]] = []
        var written: Int64 = 0
        var index: UInt64 = 0
        while written < size {
            let count = Int(min(Int64(blockSize), size - written))
            var block: [UInt8]
            if pool.count < 16 {
                block = RandomBytes.make(blockSize)
                pool.append(block)
            } else {
                block = pool[Int(index % 16)]
                withUnsafeBytes(of: index.littleEndian) { stamp in
                    for (offset, byte) in stamp.enumerated() { block[offset] = byte }
                }
            }
            if count < block.count { block.removeLast(block.count - count) }
            digester?.update(ByteBuffer(bytes: block))
            try handle.write(contentsOf: block)
            written += Int64(count)
            index += 1
        }
        return digester?.finalize() ?? ""
    }

    /// The SHA-256 of the file at `url`, read one block at a time.
    package static func sha256(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        guard var digester = Digester(.sha256) else { throw ConformanceFailure("SHA-256 is not available") }
        while let data = try handle.read(upToCount: blockSize), !data.isEmpty {
            digester.update(ByteBuffer(bytes: data))
        }
        return digester.finalize()
    }

    /// The size of the file at `url`, or `nil` if there is none.
    package static func size(of url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }
}
