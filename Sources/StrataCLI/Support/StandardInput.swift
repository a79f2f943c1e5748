import Foundation
import NIOCore

/// Standard input as an async sequence of 256 KiB buffers, read on demand.
struct StandardInput: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> ByteBuffer? {
            let data = FileHandle.standardInput.readData(ofLength: 256 << 10)
            return data.isEmpty ? nil : ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
