import Foundation
import NIOCore

/// Conversions between Foundation's `Data` and NIO's `ByteBuffer`.
enum ByteBufferBridge {
    static func buffer(_ data: Data) -> ByteBuffer { ByteBuffer(bytes: data) }
}
